/**
 * What other areas may read of users in their own queries: lists that join users and must apply
 * accounts' rules before paginating (who is visible, who shows their reactions). Read only: a change
 * to a user goes through UsersService.
 */
import { type SQL, sql } from 'drizzle-orm';
import { defaultSettings } from './settings.service.ts';
import { type UserRow, type UserSettings, users } from './tables.ts';

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

/** Users anyone may find by name (GET /api/users/search): active and discoverable (the default). */
export const discoverableUser = (): SQL =>
  sql`(${activeUser()} AND coalesce((${users.settings} ->> 'discoverable')::boolean, ${defaultSettings.discoverable}))`;

/** The same rule in SQL, for lists that filter users before paginating; the viewer always sees their own. */
export function reactionsShownTo(viewerId: string | null): SQL {
  const shown = sql`coalesce((${users.settings} ->> 'showReactionsPublicly')::boolean, ${defaultSettings.showReactionsPublicly})`;
  return viewerId === null ? shown : sql`(${shown} OR ${users.id} = ${viewerId})`;
}
