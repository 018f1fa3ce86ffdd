/**
 * What other areas may read of follows in their own joins (never write): federation delivers a local
 * user's posts to the inboxes of their remote followers, and keeps (and lists) the notes of the remote
 * actors local users follow.
 */
import { follows } from './tables.ts';

export const followRows = follows;
export type { FollowRow } from './tables.ts';
