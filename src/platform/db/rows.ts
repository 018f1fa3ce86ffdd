import type { SQL } from 'drizzle-orm';
import type { Db } from './database.ts';

/** Runs a raw `sql` template and returns its rows, whichever engine answers (both expose `.rows`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
