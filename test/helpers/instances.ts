/**
 * Several instances of the real server on one fresh migrated PostgreSQL database of the test's own
 * (on the DATABASE_URL server, from the migrated template: no reference data to load), each with its
 * own DATA_DIR, for fault tests that need two processes but do not restart PostgreSQL. The test keeps
 * a connection of its own (`database`) to read what the instances wrote.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../src/platform/db/database.ts';
import { openTestDatabase, postgresUrlOf, testEngine } from './database.ts';
import { type ServerProcess, startServer } from './server-process.ts';

/** Why several instances cannot run here (a `describe`'s skip reason), or null when they can. */
export function instancesUnavailable(): string | null {
  return testEngine() === 'postgres' ? null : 'two server processes share a database only on PostgreSQL';
}

export interface Instances {
  readonly servers: ServerProcess[];
  readonly database: Database;
  /** The end of every instance's log, for a failure message. */
  logs(): string;
  close(): Promise<void>;
}

/** One server per entry of `envs` (its environment on top of the shared one), started together. */
export async function startInstances(
  envs: Record<string, string>[],
  shared: Record<string, string> = {},
): Promise<Instances> {
  const database = await openTestDatabase();
  const url = await postgresUrlOf(database);
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-instances-'));
  const started = await Promise.allSettled(
    envs.map((env, index) =>
      startServer({ DATABASE_URL: url, DATA_DIR: join(dataDir, String(index)), ...shared, ...env }),
    ),
  );
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const close = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await close();
    throw failed.reason;
  }
  return {
    servers,
    database,
    logs: () => servers.map((server, index) => `instance ${index}:\n${server.log(2000)}`).join('\n'),
    close,
  };
}
