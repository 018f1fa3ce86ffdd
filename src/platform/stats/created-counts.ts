/**
 * The counts of a stats provider in one statement: all rows, and those created since each window's
 * start. Called by an area's repository on its own table; each windowed count is a range on an index
 * led by the creation time (see docs/api.md, Statistics, for the indexes each table has).
 */
import { type AnyColumn, and, gte, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.ts';
import { returned } from '../db/returned.ts';
import { queryRows } from '../db/rows.ts';
import type { CreatedCounts, StatsSince } from './stats.ts';

export async function createdCounts(
  db: Db,
  table: PgTable,
  createdAt: AnyColumn,
  since: StatsSince,
  where?: SQL,
): Promise<CreatedCounts> {
  const count = (from: Date | null) =>
    sql`(SELECT count(*)::int FROM ${table} WHERE ${and(where, from === null ? undefined : gte(createdAt, from)) ?? sql`true`})`;
  const [row] = await queryRows<CreatedCounts>(
    db,
    sql`SELECT ${count(null)} AS "total", ${count(since.day)} AS "day",
               ${count(since.week)} AS "week", ${count(since.month)} AS "month"`,
  );
  return returned(row, 'createdCounts');
}
