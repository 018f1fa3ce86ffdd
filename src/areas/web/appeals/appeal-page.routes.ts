/**
 * GET /appeal?token=… (the link mailed with a ban) shows the appeal form and changes nothing; its POST
 * files the appeal through the same service method as POST /api/appeals, counted with it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { perIp } from '../../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import { appealLinkRateLimits, maxAppealTextLength } from '../../appeals/public.ts';
import { pageContext } from '../layout/page-context.ts';
import { htmlMediaType, sendPage } from '../layout/send-page.ts';
import type { WebServices } from '../public.ts';
import { type AppealPage, appealPagePath, renderAppealPage } from './appeal-page.ts';

const TokenQuery = {
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the mailed link' }),
};
const tokenErrors = ['invalidToken', 'tokenUsed', 'tokenExpired'] as const;

/** A page of a mailed link: its token must stay out of caches. */
async function sendAppealPage(request: FastifyRequest, reply: FastifyReply, shown: AppealPage) {
  const context = await pageContext(request, null);
  reply.header('Cache-Control', 'no-store');
  return sendPage(reply, renderAppealPage(context, shown));
}

export function appealPageRoutes({ appeals }: Pick<WebServices, 'appeals'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: appealPagePath,
      auth: 'none',
      summary: 'The link mailed with a ban: a form to appeal it (the GET changes nothing)',
      rateLimit: [perIp('appeal-page', 60, 60)],
      query: TokenQuery,
      errors: [...tokenErrors],
      success: { status: 200, mediaType: htmlMediaType, description: 'The appeal form' },
      handler: async ({ query, request, reply }) => {
        await appeals.checkLink(query.token);
        return sendAppealPage(request, reply, { kind: 'form', token: query.token, maxLength: maxAppealTextLength });
      },
    }),
    route({
      method: 'POST',
      path: appealPagePath,
      auth: 'none',
      summary: "The appeal form's button: files the appeal (as POST /api/appeals; the link then is spent)",
      description: 'An HTML form with the field `text`; the token is in the URL, as in the mailed link.',
      rateLimit: appealLinkRateLimits,
      query: TokenQuery,
      formBody: true,
      body: Type.Object(
        { text: Type.String({ maxLength: maxAppealTextLength * 2, description: 'Why the decision is a mistake' }) },
        { additionalProperties: false },
      ),
      errors: [...tokenErrors, 'alreadyAppealed', 'appealWindowClosed'],
      success: { status: 200, mediaType: htmlMediaType, description: 'A page saying the appeal was sent' },
      handler: async ({ query, body, locale, request, reply }) => {
        await appeals.fileByLink(query.token, body.text, locale);
        return sendAppealPage(request, reply, { kind: 'sent' });
      },
    }),
  ];
}
