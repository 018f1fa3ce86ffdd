/** Delivering a remote server's signed activity to the app's inboxes, and draining what it queued. */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/rows.ts';
import type { TestApp, TestResponse } from './app.ts';

/** Sends a fetch Request through the app as it arrived (its headers and body bytes untouched). */
export async function deliver(t: TestApp, request: Request, body?: string): Promise<TestResponse> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const url = new URL(request.url);
  return t.request({ method: 'POST', url: url.pathname, headers, payload: body ?? (await request.text()) });
}

/** The messages waiting in Fedify's queue (incoming activities, outgoing deliveries). */
export async function queued(t: TestApp): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.services.platform.transactions.db,
    sql`SELECT count(*)::int AS n FROM federation_queue`,
  );
  return row?.n ?? 0;
}

/** Runs the job federation-queue until nothing is due (an activity handled may queue deliveries). */
export async function drainFederationQueue(t: TestApp): Promise<void> {
  for (let run = 0; run < 5 && (await queued(t)) > 0; run += 1) {
    await t.services.platform.jobs.run('federation-queue');
  }
}
