/**
 * A column's bare name, typed from its table, for raw SQL where PostgreSQL wants no table before it
 * (an INSERT's column list, SET, ON CONFLICT, `excluded.<name>`, a CTE's columns): `${table.column}`
 * writes `"table"."column"`. Renaming a column in tables.ts then fails the typecheck, not a statement.
 */
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

export const nameOf = (column: AnyColumn): SQL => sql`${sql.identifier(column.name)}`;

/** Several bare names, comma-separated (an INSERT's column list). */
export const namesOf = (...columns: AnyColumn[]): SQL => sql.join(columns.map(nameOf), sql`, `);

/** For statement()'s text (no Drizzle SQL there): `alias.column`, the name typed from the table. */
export const columnsOfAlias =
  (alias: string) =>
  (column: AnyColumn): string =>
    `${alias}.${column.name}`;
