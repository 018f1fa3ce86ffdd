/**
 * What other areas may read of users in their own queries: lists that join users and must apply
 * accounts' rules before paginating (who shows their reactions). Read only: a change to a user goes
 * through UsersService.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type UserRow, users } from './tables.ts';

/** The users rows, to join and select from (never to write). */
export const userRows = users;
export type { UserRow };

/** Users whose reactions the viewer may list: those who did not turn `showReactionsPublicly` off, and the viewer. */
export function reactionsShownTo(viewerId: string | null): SQL {
  const shown = sql`(${users.settings} ->> 'showReactionsPublicly') IS DISTINCT FROM 'false'`;
  return viewerId === null ? shown : sql`(${shown} OR ${users.id} = ${viewerId})`;
}
