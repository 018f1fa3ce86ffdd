/**
 * Counts the statements the app sends to its database, by wrapping the driver's query function (the
 * pg pool's, or PGlite's), and keeps what each was: its text, its values and, for a prepared one, its name.
 */
import type { Database } from '../../src/platform/db/database.ts';
import { isPostgres } from '../../src/platform/db/postgres-database.ts';

export interface SentStatement {
  text: string;
  /** The prepared statement's name; undefined for an unnamed (parsed every time) statement. */
  name: string | undefined;
  values: unknown[];
}

type Queryable = { query: (...args: unknown[]) => unknown };

/**
 * Wraps `target.query` (a pg pool or client, or PGlite) so that every statement it is given is kept in
 * `sent`; `restore` unwraps it. Values given beside a query config replace the config's own, as in pg.
 */
export function catchStatements(target: Queryable) {
  const sent: SentStatement[] = [];
  const original = target.query;
  target.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args as [string | { text: string; name?: string; values?: unknown[] }, unknown];
    const values = Array.isArray(second) ? second : typeof first === 'string' ? [] : (first.values ?? []);
    sent.push(
      typeof first === 'string'
        ? { text: first, name: undefined, values }
        : { text: first.text, name: first.name, values },
    );
    return original.apply(this, args);
  };
  return {
    sent,
    reset: () => {
      sent.length = 0;
    },
    restore: () => {
      target.query = original;
    },
  };
}

export function watchStatements(database: Database) {
  const target = isPostgres(database) ? database.pool : (database as unknown as { client: object }).client;
  return catchStatements(target as unknown as Queryable);
}
