/** LIKE patterns from user text, with its metacharacters taken as themselves. */
import { type SQL, sql } from 'drizzle-orm';

/**
 * `value%` for a LIKE, the value escaped in SQL after whatever folding produced it: unaccent turns the
 * full-width ％ ＿ ＼ into % _ \, so escaping the raw text first would let them act as wildcards.
 */
export const likePrefix = (value: SQL): SQL =>
  sql`(replace(replace(replace(${value}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')`;
