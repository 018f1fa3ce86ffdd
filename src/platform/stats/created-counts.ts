/**
 * The counts of a stats provider in one statement: all rows, and those created since each window's
 * start. Called by an area's repository on its own table; each windowed count is a range on an index
 * led by the creation time (see docs/api.md, Statistics, for the indexes each table has). `figures`
 * adds counts of its own to the row (reports' `open`): the rows where each condition holds now.
 */
import { type AnyColumn, and, gte, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.ts';
import { returned } from '../db/returned.ts';
import { queryRows } from '../db/rows.ts';
import type { CreatedCounts, StatsSince } from './stats.ts';

export async function createdCounts<Figure extends string = never>(
  db: Db,
  table: PgTable,
  createdAt: AnyColumn,
  since: StatsSince,
  where?: SQL,
  figures: Record<Figure, SQL> = {} as Record<Figure, SQL>,
): Promise<CreatedCounts & Record<Figure, number>> {
  const count = (condition: SQL | undefined) =>
    sql`(SELECT count(*)::int FROM ${table} WHERE ${and(where, condition) ?? sql`true`})`;
  const createdSince = (from: Date) => count(gte(createdAt, from));
  const more = Object.entries<SQL>(figures).map(
    ([name, condition]) => sql`, ${count(condition)} AS ${sql.identifier(name)}`,
  );
  const [row] = await queryRows<CreatedCounts & Record<Figure, number>>(
    db,
    sql`SELECT ${count(undefined)} AS "total", ${createdSince(since.day)} AS "day",
               ${createdSince(since.week)} AS "week", ${createdSince(since.month)} AS "month"${sql.join(more)}`,
  );
  return returned(row, 'createdCounts');
}
