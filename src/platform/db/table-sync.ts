/**
 * A derived table made to hold exactly the rows of a query, by difference: the query's rows (fresh)
 * and the stored ones are compared in one join, and only the rows that differ are deleted or written,
 * so a table its events kept right costs reads only, and leaves no dead rows behind. The repairs of
 * the hashtag counts and of the map's cells are written with it.
 */
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { nameOf, namesOf } from './column-names.ts';
import type { Db } from './database.ts';
import { returned } from './returned.ts';
import { queryRows } from './rows.ts';

/** A column of the fresh (`f`) or the stored (`s`) side of the comparison. */
export type SideColumn = (column: AnyColumn) => SQL;

export interface TableSync {
  table: PgTable;
  keys: [AnyColumn, ...AnyColumn[]];
  values: AnyColumn[];
  /** The rows the table should hold: its keys and values, named as the table names them. */
  fresh: SQL;
  /** A column derived on insert. */
  computed?: { column: AnyColumn; value: SQL };
  /**
   * When a stored row differs from its fresh one, both present or either missing (its columns then
   * null). Any value distinct, unless given: sums of doubles, say, that events added in another order.
   */
  differs?: (f: SideColumn, s: SideColumn) => SQL;
}

/** What a sync changed. */
export interface SyncCounts {
  removed: number;
  written: number;
}

const side =
  (name: 'f' | 's'): SideColumn =>
  (column) =>
    sql`${sql.raw(name)}.${nameOf(column)}`;
const [f, s] = [side('f'), side('s')];
const joined = (parts: SQL[], separator = sql`, `) => sql.join(parts, separator);
/** The fresh and the stored row of one key. */
const sameKey = (keys: AnyColumn[]) =>
  joined(
    keys.map((key) => sql`${s(key)} = ${f(key)}`),
    sql` AND `,
  );

/** The rows that differ: their keys, fresh values, and whether a fresh row exists (else the stored one goes). */
function diffQuery({ table, keys, values, fresh, differs }: TableSync): SQL {
  const row = (of: SideColumn) => sql`(${joined(values.map(of))})`;
  const differ = differs === undefined ? sql`${row(f)} IS DISTINCT FROM ${row(s)}` : differs(f, s);
  return sql`WITH fresh AS (${fresh})
    SELECT ${joined(keys.map((key) => sql`coalesce(${f(key)}, ${s(key)}) AS ${nameOf(key)}`))},
           ${joined(values.map(f))}, ${f(keys[0])} IS NOT NULL AS present
    FROM fresh f FULL JOIN ${table} s ON ${sameKey(keys)}
    WHERE ${differ}`;
}

/** Makes the table hold exactly the fresh rows, writing only those that differ. */
export async function syncTable(db: Db, sync: TableSync): Promise<SyncCounts> {
  const { table, keys, values, computed } = sync;
  const columns = namesOf(...keys, ...values);
  const [counts] = await queryRows<SyncCounts>(
    db,
    sql`WITH diff AS MATERIALIZED (${diffQuery(sync)}), removed AS (
      DELETE FROM ${table} s USING diff f WHERE NOT f.present AND ${sameKey(keys)} RETURNING 1
    ), written AS (
      INSERT INTO ${table} (${columns}${computed ? sql`, ${nameOf(computed.column)}` : sql``})
      SELECT ${columns}${computed ? sql`, ${computed.value}` : sql``} FROM diff WHERE present
      ON CONFLICT (${namesOf(...keys)})
      DO UPDATE SET ${joined(values.map((value) => sql`${nameOf(value)} = excluded.${nameOf(value)}`))} RETURNING 1
    )
    SELECT (SELECT count(*) FROM removed)::int AS removed, (SELECT count(*) FROM written)::int AS written`,
  );
  return returned(counts, 'table-sync');
}

/** What a sync would change, read only: what a repair checks before it locks anything. */
export async function rowsOutOfSync(db: Db, sync: TableSync): Promise<SyncCounts> {
  const [counts] = await queryRows<SyncCounts>(
    db,
    sql`SELECT count(*) FILTER (WHERE NOT present)::int AS removed, count(*) FILTER (WHERE present)::int AS written
        FROM (${diffQuery(sync)}) diff`,
  );
  return returned(counts, 'table-sync.check');
}
