/**
 * What other areas may read of users in their own queries: lists that join users and must apply
 * accounts' rules before paginating (who is visible, who shows their reactions). Read only: a change
 * to a user goes through UsersService.
 */
import { type AnyColumn, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { defaultSettings } from './settings.service.ts';
import { type UserRow, type UserSettings, userBlocks, userDomainBlocks, userMutes, users } from './tables.ts';

/** The users rows, to join and select from (never to write). */
export const userRows = users;
export type { UserRow };

/**
 * What a user is shown with to anyone (presentPublicUser): the columns a list of users selects, so
 * that it neither parses nor carries what it does not show (settings, address, the password's hash).
 */
export const publicUserColumns = {
  id: users.id,
  username: users.username,
  nickname: users.nickname,
  level: users.level,
  experience: users.experience,
  verifiedAt: users.verifiedAt,
  avatarMediaId: users.avatarMediaId,
  coverMediaId: users.coverMediaId,
  createdAt: users.createdAt,
  remoteHandle: users.remoteHandle,
};
export type PublicUserRow = Pick<UserRow, keyof typeof publicUserColumns>;

/**
 * The one privacy rule of reactions, for every reader: a user's likes and dislikes are public only
 * when they turned `showReactionsPublicly` on; a user who never chose has the default (off).
 */
export const showsReactionsPublicly = (settings: Partial<UserSettings>): boolean =>
  settings.showReactionsPublicly ?? defaultSettings.showReactionsPublicly;

/**
 * The one rule of who others may see of whom (docs/api.md, "Who sees whom"): a banned account, or one
 * in its deletion's grace period, is to everyone but operators an account that does not exist: 404 by
 * id or name, out of every list of users, never mentioned, never followed. An erased account stays,
 * under its anonymous name. No exception for the user themself: a ban and a confirmed deletion end
 * every session, so a hidden user is never the viewer.
 */
export const visibleUser = (): SQL => sql`(${users.bannedAt} IS NULL AND ${users.deletionRequestedAt} IS NULL)`;

/** The same rule for a row in hand. */
export const isVisibleUser = (user: Pick<UserRow, 'bannedAt' | 'deletionRequestedAt'>): boolean =>
  user.bannedAt === null && user.deletionRequestedAt === null;

/** Users in good standing: visible and not erased (found by name, shown with their content). */
export const activeUser = (): SQL => sql`(${visibleUser()} AND ${users.anonymizedAt} IS NULL)`;

/** The same rule for a row in hand. */
export const isActiveUser = (user: Pick<UserRow, 'bannedAt' | 'deletionRequestedAt' | 'anonymizedAt'>): boolean =>
  isVisibleUser(user) && user.anonymizedAt === null;

/** Local users: not the shadow of a remote actor (federation). */
export const localUser = (): SQL => sql`${users.remoteHandle} IS NULL`;

/**
 * Users anyone may find by name (GET /api/users/search, the sitemap): active, local (a remote actor's
 * shadow is found on its own server) and discoverable (the default).
 */
export const discoverableUser = (): SQL =>
  sql`(${activeUser()} AND ${localUser()} AND coalesce((${users.settings} ->> 'discoverable')::boolean, ${defaultSettings.discoverable}))`;

/** The same rule in SQL, for lists that filter users before paginating; the viewer always sees their own. */
export function reactionsShownTo(viewerId: string | null): SQL {
  const shown = sql`coalesce((${users.settings} ->> 'showReactionsPublicly')::boolean, ${defaultSettings.showReactionsPublicly})`;
  return viewerId === null ? shown : sql`(${shown} OR ${users.id} = ${viewerId})`;
}

/**
 * The viewer of a read: an id, null for nobody (no credential), or a placeholder of a prepared
 * statement filled with an id.
 */
export type ViewerRef = string | Placeholder;

/**
 * What of the relations between the viewer and a user a reader applies (docs/api.md, "Who sees whom"):
 * - `blocks`: a block either way, or the viewer's block of the user's domain (profiles, lists of users,
 *   writes, search): always applies;
 * - `content`: blocks, and the viewer's mutes in force (media and comments in lists and feeds);
 * - `notifications`: blocks, and the viewer's mutes in force that stop notifications.
 * `at` is the request's time: a mute whose `expiresAt` is not after it no longer applies.
 */
export type ShownScope = { kind: 'blocks' } | { kind: 'content' | 'notifications'; at: Date | Placeholder };
export const blocksOnly: ShownScope = { kind: 'blocks' };

/** The domain of a remote user's handle (`ana@Host.Example:8443` -> `host.example`), as domain-names.ts reads it. */
export const remoteDomainOf = (handle: AnyColumn | SQL): SQL =>
  sql`lower(regexp_replace(split_part(${handle}::text, '@', 2), ':[0-9]+$', ''))`;

/** Whether the domain in `domain` is `blocked` or one of its subdomains (domain-names.ts `coveringDomains`). */
export const domainCoveredBy = (domain: SQL, blocked: AnyColumn | SQL): SQL =>
  sql`(${domain} = ${blocked} OR ${domain} LIKE '%.' || ${blocked})`;

/** The user a domain block is checked on (an alias: the reader's query may hold `users` itself). */
const blockedUser = alias(users, 'domain_blocked_user');

/**
 * The viewer's block of the domain of the (remote) user in `userId` (a user's own domain blocks,
 * docs/api.md, Blocks and mutes): one way, like a block made by the viewer. A local user has no domain.
 */
const domainBlockedBy = (viewer: ViewerRef, userId: AnyColumn | SQL): SQL =>
  // The first test, about the viewer alone, is computed once per statement (an InitPlan): a viewer
  // without domain blocks (nearly everyone) never reaches the per-row join, and the planner keeps the
  // lists' ordered index scans (with the join alone it sorted all of a user's likes: 7x slower).
  sql`(EXISTS (SELECT 1 FROM ${userDomainBlocks} WHERE ${userDomainBlocks.userId} = ${viewer})
    AND EXISTS (SELECT 1 FROM ${userDomainBlocks} JOIN ${users} AS ${blockedUser} ON ${blockedUser.id} = ${userId}
    WHERE ${userDomainBlocks.userId} = ${viewer} AND ${blockedUser.remoteHandle} IS NOT NULL
      AND ${domainCoveredBy(remoteDomainOf(blockedUser.remoteHandle), userDomainBlocks.domain)}))`;

/** A block either way between the viewer and the user in `userId`, or the viewer's block of the user's domain. */
export const blockedEitherWay = (viewer: ViewerRef, userId: AnyColumn | SQL): SQL =>
  sql`(EXISTS (SELECT 1 FROM ${userBlocks} WHERE ${userBlocks.blockerId} = ${viewer} AND ${userBlocks.blockedId} = ${userId})
    OR EXISTS (SELECT 1 FROM ${userBlocks} WHERE ${userBlocks.blockerId} = ${userId} AND ${userBlocks.blockedId} = ${viewer})
    OR ${domainBlockedBy(viewer, userId)})`;

/** The viewer's mute of the user in `userId`, in force at `at` (and stopping notifications, if asked). */
const mutedBy = (viewer: ViewerRef, userId: AnyColumn | SQL, at: Date | Placeholder, notifications: boolean): SQL =>
  sql`EXISTS (SELECT 1 FROM ${userMutes} WHERE ${userMutes.muterId} = ${viewer} AND ${userMutes.mutedId} = ${userId}
    AND (${userMutes.expiresAt} IS NULL OR ${userMutes.expiresAt} > ${at})${notifications ? sql` AND ${userMutes.notifications}` : sql``})`;

/**
 * The one rule of who may see whom beyond bans and deletions, for every SQL reader: true where the
 * user in `userId` (a column of the reader's query) is shown to the viewer under `scope`. Nothing for
 * no viewer (undefined: Drizzle's `and` drops it), so anonymous reads do not change; the user's own
 * rows are never hidden from them (a user neither blocks nor mutes themself).
 */
export function shownTo(
  viewer: ViewerRef | null,
  userId: AnyColumn | SQL,
  scope: ShownScope = blocksOnly,
): SQL | undefined {
  if (viewer === null) return undefined;
  const hidden =
    scope.kind === 'blocks'
      ? blockedEitherWay(viewer, userId)
      : sql`(${blockedEitherWay(viewer, userId)} OR ${mutedBy(viewer, userId, scope.at, scope.kind === 'notifications')})`;
  return sql`NOT ${hidden}`;
}
