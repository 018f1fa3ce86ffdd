/**
 * A list's key, defined once next to its query in the repository: the columns it orders by, the kinds
 * of their values in a cursor (keyset-cursor.ts), and how to read a row's key. Lists are newest
 * (largest key) first unless `order: 'asc'`.
 */
import type { AnyColumn, SQL } from 'drizzle-orm';

/** A cursor's parts: 'int' is a PostgreSQL integer (int4), 'number' a double. */
export type KeyPart = 'timestamp' | 'uuid' | 'int' | 'number' | 'string';
export type KeyValue = Date | string | number;

/** `name` goes into every cursor, so a cursor made for one list is refused by another (400 invalidCursor). */
export interface Keyset<Row> {
  name: string;
  shape: KeyPart[];
  columns: (AnyColumn | SQL)[];
  keyOf(row: Row): KeyValue[];
  /** 'desc' (default): largest key first, as newest-first lists; 'asc': smallest first (nearest first). */
  order?: 'asc' | 'desc';
}

export const defineKeyset = <Row>(keyset: Keyset<Row>): Keyset<Row> => keyset;

/** The most common list: rows with their own createdAt and id, newest first. */
export const newestFirst = <Row extends { createdAt: Date; id: string }>(
  name: string,
  table: { createdAt: AnyColumn; id: AnyColumn },
): Keyset<Row> =>
  defineKeyset<Row>({
    name,
    shape: ['timestamp', 'uuid'],
    columns: [table.createdAt, table.id],
    keyOf: (row) => [row.createdAt, row.id],
  });
