/**
 * The service's job runs that overlapped a measured window, read from pg-boss's own table in the
 * scratch database (`pgboss.job` keeps a run's start and end for days): the service's scheduled work
 * (the map's cells, hashtags and search repairs once a day, the every-minute jobs) runs in its
 * process and its database whichever scenario is being measured, and the twin has none, so a row
 * whose window held a long run is read with that in mind. PostgreSQL only, as the twin.
 */
import pg from 'pg';

export interface Window {
  from: Date;
  to: Date;
}

/**
 * For each window, "name (seconds)" of each run of 0.1 s or more that overlapped it, in the order they
 * started (pg-boss's own queues, such as its cron's `__pgboss__send-it`, and the every-minute jobs'
 * runs with nothing to do are left out). One connection for all the windows.
 */
export async function jobRunsDuring(databaseUrl: string, windows: Window[]): Promise<string[][]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const runs: string[][] = [];
    for (const window of windows) {
      const { rows } = await client.query<{ name: string; seconds: number }>(
        `SELECT name, extract(epoch FROM coalesce(completed_on, now()) - started_on)::float8 AS seconds
         FROM pgboss.job
         WHERE started_on IS NOT NULL AND started_on < $2 AND coalesce(completed_on, now()) > $1
           AND name NOT LIKE '\\_\\_pgboss\\_\\_%' AND coalesce(completed_on, now()) - started_on >= interval '0.1 s'
         ORDER BY started_on`,
        [window.from, window.to],
      );
      runs.push(rows.map((row) => `${row.name} (${row.seconds.toFixed(1)} s)`));
    }
    return runs;
  } finally {
    await client.end();
  }
}
