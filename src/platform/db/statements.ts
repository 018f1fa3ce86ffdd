/**
 * Named prepared statements for the hot paths. A statement's SQL text is written once, at module load;
 * on PostgreSQL each pooled connection parses and plans it on its first use and then only binds and
 * executes it (pg's named statements, which PgBouncer ≥ 1.21 also tracks). PGlite has a single
 * session in this process: it runs the same text with its parameters.
 *
 *   const unread = statement<{ unread: number }>('notifications.unread',
 *     'SELECT unread FROM notification_counters WHERE owner_id = $1');
 *   const rows = await runStatement(this.db, unread, [ownerId]);
 *
 * Columns come back under the names the SQL gives them, so alias them to the row type's
 * (`owner_id AS "ownerId"`). timestamptz arrives as Date and jsonb parsed, on both engines.
 * The statement runs on the transaction in progress when there is one (the `db` of a repository).
 */
import type { Db } from './database.ts';

export interface Statement<Row> {
  readonly name: string;
  readonly text: string;
  /** Carries the row type only. */
  readonly row?: Row;
}

const declaredNames = new Set<string>();

/** Declares a statement; names are global on a connection, so each may be declared once. */
export function statement<Row>(name: string, text: string): Statement<Row> {
  if (declaredNames.has(name)) throw new Error(`statement ${name} is declared twice`);
  declaredNames.add(name);
  return { name, text };
}

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}
interface PgliteQueryable {
  exec(text: string): Promise<unknown>;
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The driver's client under a Drizzle handle: a pg Pool or PoolClient, or PGlite or its transaction.
 * Drizzle keeps it as `session.client` for the database and for each transaction alike.
 */
function clientOf(db: Db): PgQueryable | PgliteQueryable {
  return (db as unknown as { session: { client: PgQueryable | PgliteQueryable } }).session.client;
}

export async function runStatement<Row>(db: Db, { name, text }: Statement<Row>, values: unknown[]): Promise<Row[]> {
  const client = clientOf(db);
  const result =
    'exec' in client ? await client.query(text, values) : await (client as PgQueryable).query({ name, text, values });
  return result.rows as Row[];
}
