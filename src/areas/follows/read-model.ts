/**
 * What other areas may read of follows in their own joins (never write): federation's remote posts
 * keep the notes of remote actors a local user follows, and list them to their followers.
 */
export { follows as followRows } from './tables.ts';
