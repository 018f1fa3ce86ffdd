import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { OwnShareLink } from './share-links.repository.ts';

const linkAttributes = {
  targetKind: Type.String({ description: '`post`, `collection` or `trip` (more kinds as areas add them)' }),
  targetId: Type.String({
    format: 'uuid',
    description: 'The post (its media id), the bookmark collection or the trip',
  }),
  expiresAt: Nullable(Timestamp),
  hasPassword: Type.Boolean({ description: 'Visitors type a password before they see the target' }),
  views: Type.Integer({ description: 'How many times the target was shown (a count only: nothing of who)' }),
  createdAt: Timestamp,
};

export const ShareLinkSchema = ResourceSchema('shareLinks', Type.Object(linkAttributes), undefined, 'ShareLink');

/** The creation's answer adds the token and the page's URL: shown this once, only the token's hash is kept. */
export const CreatedShareLinkSchema = ResourceSchema(
  'shareLinks',
  Type.Object({
    ...linkAttributes,
    token: Type.String({ description: 'The secret; shown once (only its SHA-256 is kept)' }),
    url: Type.String({ description: 'The page that opens the target for anyone holding it: PUBLIC_URL/s/{token}' }),
  }),
  undefined,
  'CreatedShareLink',
);

export function presentShareLink(link: OwnShareLink) {
  return resource('shareLinks', link.id, {
    targetKind: link.targetKind,
    targetId: link.targetId,
    expiresAt: link.expiresAt === null ? null : formatTimestamp(link.expiresAt),
    hasPassword: link.hasPassword,
    views: link.views,
    createdAt: formatTimestamp(link.createdAt),
  });
}

export function presentCreatedShareLink(link: OwnShareLink, token: string, url: string) {
  const base = presentShareLink(link);
  return { ...base, attributes: { ...base.attributes, token, url } };
}
