/**
 * A PostgreSQL cluster of the test's own, on a free loopback port, for tests that restart or break
 * the server (never the shared one): initdb into a temporary folder, start, restart, stop, remove.
 * The server binaries are those of the machine's PostgreSQL (PG_BIN, else the newest
 * /usr/lib/postgresql/N/bin). PostgreSQL refuses to run as root, so as root every command runs as
 * the `postgres` user, which then owns the folder.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.ts';

const run = promisify(execFile);

function binDirectory(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  const [newest] = versions;
  return newest === undefined ? null : join(root, newest, 'bin');
}

/** Why a private cluster cannot be started here, or null when it can. */
export function privatePostgresUnavailable(): string | null {
  return binDirectory() === null ? 'no PostgreSQL server binaries (initdb) on this machine' : null;
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication) */
  readonly url: string;
  readonly port: number;
  /** `pg_ctl restart -m fast`: every session is ended, as a minor upgrade or a failover does. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server if it runs and removes its folder. */
  remove(): Promise<void>;
}

/** The server binaries, a folder the server may own, and how to run a binary (as `postgres` under root). */
async function clusterFolder(prefix: string) {
  const bin = binDirectory();
  if (bin === null) throw new Error(privatePostgresUnavailable() ?? 'no PostgreSQL');
  const folder = mkdtempSync(join(tmpdir(), prefix));
  const asRoot = userInfo().uid === 0;
  if (asRoot)
    chownSync(
      folder,
      Number((await run('id', ['-u', 'postgres'])).stdout),
      Number((await run('id', ['-g', 'postgres'])).stdout),
    );
  const command = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args]) : run(join(bin, name), args);
  return { folder, data: join(folder, 'data'), command };
}

/** A cluster's data folder as a server on a free port: start, restart, stop, remove. */
async function serve(
  { folder, data, command }: Awaited<ReturnType<typeof clusterFolder>>,
  settings: string[] = [],
): Promise<PrivatePostgres> {
  const port = await freePort();
  const options = [
    `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
    ...settings.map((setting) => `-c ${setting}`),
  ].join(' ');
  const pgCtl = (...args: string[]) => command('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-w', ...args]);
  let running = false;
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await pgCtl('-o', options, 'start');
      running = true;
    },
    async restart() {
      await pgCtl('-o', options, '-m', 'fast', 'restart');
      running = true;
    },
    async stop() {
      await pgCtl('-m', 'fast', 'stop');
      running = false;
    },
    async remove() {
      if (running) await cluster.stop().catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const cluster = await clusterFolder('tms-private-pg-');
  // initdb's defaults already allow a streaming standby: wal_level=replica, max_wal_senders=10, and
  // `host replication all 127.0.0.1/32 trust` in pg_hba.conf with --auth=trust.
  await cluster.command('initdb', [
    '-D',
    cluster.data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  return serve(cluster, ['wal_level=replica', 'max_wal_senders=10']);
}

/**
 * A streaming standby of `primary` on a free port of its own: `pg_basebackup -R` (a copy of the
 * primary that writes standby.signal and primary_conninfo), started as a hot standby that answers
 * reads. `SELECT pg_wal_replay_pause()` on it holds its replay (its lag grows while the primary
 * writes), `pg_wal_replay_resume()` lets it catch up.
 */
export async function startPrivateStandby(primary: PrivatePostgres): Promise<PrivatePostgres> {
  const cluster = await clusterFolder('tms-private-standby-');
  await cluster.command('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    cluster.data,
    '-R',
    '-X',
    'stream',
    // At once: the default spread checkpoint takes most of checkpoint_timeout (minutes).
    '--checkpoint=fast',
    '--no-sync',
  ]);
  return serve(cluster, ['hot_standby=on']);
}

/**
 * Copies a database (e.g. the migrated test template of the shared server) into `target`'s `postgres`
 * database with pg_dump and psql: seconds, where migrating a new cluster loads the geography
 * reference data for minutes. The dump's empty search_path is left out: earthdistance's ll_to_earth
 * (a generated column's expression) names the type `earth` unqualified, and cannot be restored under it.
 */
export async function copyDatabaseInto(sourceUrl: string, target: PrivatePostgres): Promise<void> {
  const bin = binDirectory();
  if (bin === null) throw new Error(privatePostgresUnavailable() ?? 'no PostgreSQL');
  const folder = mkdtempSync(join(tmpdir(), 'tms-dump-'));
  const file = join(folder, 'database.sql');
  try {
    await run(join(bin, 'pg_dump'), ['--no-owner', '--no-privileges', '-d', sourceUrl, '-f', file]);
    const dump = readFileSync(file, 'utf8').replace("SELECT pg_catalog.set_config('search_path', '', false);", '');
    writeFileSync(file, dump);
    await run(join(bin, 'psql'), ['-q', '-v', 'ON_ERROR_STOP=1', '-d', target.url, '-f', file], {
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
