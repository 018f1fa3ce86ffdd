/** Where the federation's documents live (Fedify's URI templates) and what the bridge hands Fedify. */
import { isLowercaseUuid } from '../../platform/ids/ids.ts';

/** A local user's actor: keyed by the user id, which never changes (a username may). */
export const actorPath = '/ap/users/{identifier}';
export const inboxPath = '/ap/users/{identifier}/inbox';
export const followersPath = '/ap/users/{identifier}/followers';
export const outboxPath = '/ap/users/{identifier}/outbox';
/** A local post's `Note` (Fedify's object dispatcher; `postPath` below is its URL path). */
export const notePath = '/ap/posts/{id}';
export const sharedInboxPath = '/ap/inbox';
export const nodeInfoPath = '/nodeinfo/2.1';

/**
 * A local post's URI as other servers name it (its `Note` is served there): keyed by the media id, like
 * the actors.
 */
export const postPath = (mediaId: string) => `/ap/posts/${mediaId}`;

/** The request paths the Fastify bridge gives Fedify (exact, or a prefix ending in `/`). */
export const federatedPaths = {
  exact: ['/.well-known/webfinger', '/.well-known/nodeinfo', nodeInfoPath],
  prefix: '/ap/',
} as const;

/** The user id an actor identifier names, or null for anything else (the id is a lower-case UUID). */
export const userIdOfIdentifier = (identifier: string): string | null =>
  isLowercaseUuid(identifier) ? identifier : null;

/** The media id of a post's URL path (`/ap/posts/<id>`), for the post-page redirect. */
export function mediaIdOfPostPath(pathname: string): string | null {
  const match = /^\/ap\/posts\/([^/]+)$/.exec(pathname);
  return match?.[1] !== undefined && isLowercaseUuid(match[1]) ? match[1] : null;
}

/** The user id of an actor's URL path (`/ap/users/<id>`), for the profile-page redirect. */
export function userIdOfActorPath(pathname: string): string | null {
  const match = /^\/ap\/users\/([^/]+)$/.exec(pathname);
  return match?.[1] !== undefined && isLowercaseUuid(match[1]) ? match[1] : null;
}

/** The media id of a local post's URI (`{origin}/ap/posts/<id>`), or null for any other URI. */
export function mediaIdOfPostUri(uri: URL, origin: string): string | null {
  if (uri.origin !== origin) return null;
  const match = /^\/ap\/posts\/([^/]+)$/.exec(uri.pathname);
  return match?.[1] !== undefined && isLowercaseUuid(match[1]) ? match[1] : null;
}
