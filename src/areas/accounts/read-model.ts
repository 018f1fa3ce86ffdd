/**
 * What other areas may read of users in their own queries: lists that join users and must apply
 * accounts' rules before paginating (who shows their reactions). Read only: a change to a user goes
 * through UsersService.
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

/** Users in good standing: neither banned, nor erased, nor being deleted (a confirmed deletion in its grace period). */
export const activeUser = (): SQL =>
  sql`(${users.bannedAt} IS NULL AND ${users.anonymizedAt} IS NULL AND ${users.deletionRequestedAt} IS NULL)`;

/**
 * Users shown in lists of users (followers, following, likers): all but accounts being deleted (their
 * follows and likes still count until the erasure; a banned user stays listed, as their follows count).
 */
export const listedUser = (): SQL => sql`(${users.deletionRequestedAt} IS NULL)`;

/** Users anyone may find by name (GET /api/users/search): active and discoverable (the default). */
export const discoverableUser = (): SQL =>
  sql`(${activeUser()} AND coalesce((${users.settings} ->> 'discoverable')::boolean, ${defaultSettings.discoverable}))`;

/** The same rule in SQL, for lists that filter users before paginating; the viewer always sees their own. */
export function reactionsShownTo(viewerId: string | null): SQL {
  const shown = sql`coalesce((${users.settings} ->> 'showReactionsPublicly')::boolean, ${defaultSettings.showReactionsPublicly})`;
  return viewerId === null ? shown : sql`(${shown} OR ${users.id} = ${viewerId})`;
}
