/** Share links: mine (create, list, revoke). The page a link opens is the web area's (GET /s/{token}). */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, Nullable, Timestamp } from '../../platform/http/jsonapi.ts';
import { pageDocument } from '../../platform/http/page-document.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { CreatedShareLinkSchema, presentCreatedShareLink, presentShareLink, ShareLinkSchema } from './presenters.ts';
import type { ShareLinksServices } from './public.ts';
import { shareLinkLimits, shareLinkPath } from './share-links.service.ts';
import { targetKindPattern } from './share-targets.ts';

const mine = '/api/users/me/share-links';

const ShareLinkBody = Type.Object(
  {
    targetKind: Type.String({
      pattern: targetKindPattern.source,
      description:
        '`post` (a post, by its media id), `collection` (one of my bookmark collections) or `trip` (one of my trips, by its UUID)',
    }),
    targetId: Type.String({ maxLength: 64, description: 'The target: UUID or 32 hex digits; mine (else 404)' }),
    expiresAt: Type.Optional(Nullable({ ...Timestamp, description: 'When the link stops opening; in the future' })),
    password: Type.Optional(
      Nullable(
        Type.String({
          minLength: shareLinkLimits.passwordMinLength,
          maxLength: shareLinkLimits.passwordMaxLength,
          description: `Visitors type it before they see the target (${shareLinkLimits.passwordMinLength} to ${shareLinkLimits.passwordMaxLength} characters); kept as an argon2id hash`,
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const shareLinkRateLimits = {
  create: [perIp('share-link-create', 120, 3600), perUser('share-link-create', 60, 3600)],
  revoke: [perIp('share-link-revoke', 240, 3600), perUser('share-link-revoke', 120, 3600)],
};

export function shareLinksRoutes({ shareLinks }: Pick<ShareLinksServices, 'shareLinks'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: mine,
      auth: 'user',
      summary: 'Share one of my posts, bookmark collections or trips by a secret link (optional expiry and password)',
      description:
        "The answer holds the token and the URL of the page once: only the token's SHA-256 is kept. A past `expiresAt` is 422 `expiryInPast`; a target not mine is 404.",
      body: ShareLinkBody,
      rateLimit: shareLinkRateLimits.create,
      errors: ['notFound', 'expiryInPast'],
      success: { status: 201, schema: DocumentSchema(CreatedShareLinkSchema) },
      handler: async ({ viewer, body, request }) => {
        const { link, token } = await shareLinks.create(viewer.userId, {
          targetKind: body.targetKind,
          targetId: body.targetId,
          expiresAt: body.expiresAt == null ? null : new Date(body.expiresAt),
          password: body.password ?? null,
        });
        return { data: presentCreatedShareLink(link, token, `${request.server.publicUrl}${shareLinkPath(token)}`) };
      },
    }),
    route({
      method: 'GET',
      path: mine,
      auth: 'user',
      summary: 'My share links, newest first, with their views (the tokens are not kept: shown at creation only)',
      page: { keyset: shareLinks.keyset },
      success: { status: 200, schema: CollectionSchema(ShareLinkSchema) },
      handler: async ({ viewer, page, links }) =>
        pageDocument(await shareLinks.list(viewer.userId, page), { page, links }, presentShareLink),
    }),
    route({
      method: 'DELETE',
      path: `${mine}/{id}`,
      auth: 'user',
      summary: 'Revoke one of my share links: it stops opening at once, on every instance',
      params: { id: idParam('The share link UUID', { hex: false }) },
      rateLimit: shareLinkRateLimits.revoke,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => shareLinks.revoke(viewer.userId, params.id),
    }),
  ];
}
