/**
 * The page of a share link (docs/api.md, Share links): GET /s/{token} shows the target, or its password
 * form, which POSTs the password to the same URL. Every answer is `no-store` and `noindex` (the token is
 * the secret); an unknown, revoked or expired link, and a target that no longer opens, are one 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errorPage } from '../../../platform/http/answers.ts';
import { perIp } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import type { RateLimitRule, Viewer } from '../../../platform/http/types.ts';
import { hashToken } from '../../../platform/secrets/opaque-tokens.ts';
import { shareLinkLimits } from '../../share-links/public.ts';
import { pageContext } from '../layout/page-context.ts';
import { htmlMediaType, sendPage } from '../layout/send-page.ts';
import type { WebServices } from '../public.ts';
import { renderPasswordPage, renderSharedPage } from './share-page.ts';

const TokenParam = { token: Type.String({ minLength: 1, maxLength: 100, description: 'The token of the link' }) };

/** Password tries on one link, whoever makes them (keyed by the token's hash, never the token). */
const perLink = (max: number, windowSeconds: number): RateLimitRule => ({
  name: 'share-link-password:link',
  max,
  windowSeconds,
  key: (request) => {
    const token = (request.params as { token?: unknown } | undefined)?.token;
    return typeof token === 'string' ? hashToken(token) : null;
  },
});
const openLimits = [perIp('share-link-open', 120, 60)];
const passwordLimits = [perIp('share-link-password', 20, 900), perLink(30, 900)];

async function answer(
  { shareLinks }: Pick<WebServices, 'shareLinks'>,
  request: FastifyRequest,
  reply: FastifyReply,
  viewer: Viewer | null,
  token: string,
  password?: string,
) {
  const context = await pageContext(request, viewer);
  const opened = await shareLinks.open(token, viewer?.userId ?? null, context.locale, password);
  reply.header('Cache-Control', 'no-store').header('X-Robots-Tag', 'noindex');
  if (opened.state === 'open') return sendPage(reply, renderSharedPage(context, token, opened.view));
  const form = renderPasswordPage(context, token, opened.wrongPassword);
  return opened.wrongPassword ? errorPage('forbidden', form) : sendPage(reply, form);
}

export function sharePageRoutes(services: Pick<WebServices, 'shareLinks'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/s/{token}',
      auth: 'optional',
      summary: 'The page of a share link: the shared post, collection or trip alone, or its password form (HTML)',
      description: 'Counts a view each time the target is shown (a count only). `no-store`, `noindex`.',
      params: TokenParam,
      rateLimit: openLimits,
      errors: ['notFound'],
      success: { status: 200, mediaType: htmlMediaType, description: 'The target, or the password form' },
      handler: ({ viewer, params, request, reply }) => answer(services, request, reply, viewer, params.token),
    }),
    route({
      method: 'POST',
      path: '/s/{token}',
      auth: 'optional',
      summary: 'The password form of a share link: the target when the password is right (HTML)',
      description: 'A wrong password is 403 with the form again; tries are limited per IP and per link.',
      params: TokenParam,
      rateLimit: passwordLimits,
      formBody: true,
      body: Type.Object(
        { password: Type.String({ minLength: 1, maxLength: shareLinkLimits.passwordMaxLength }) },
        { additionalProperties: false },
      ),
      errors: ['notFound', 'forbidden'],
      success: { status: 200, mediaType: htmlMediaType, description: 'The target' },
      handler: ({ viewer, params, body, request, reply }) =>
        answer(services, request, reply, viewer, params.token, body.password),
    }),
  ];
}
