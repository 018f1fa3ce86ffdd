/**
 * A PostgreSQL cluster of the test's own, on a free loopback port, for tests that restart or break
 * the server (never the shared one): initdb into a temporary folder, start, restart, stop, remove.
 * The server binaries are those of the machine's PostgreSQL (PG_BIN, else the newest
 * /usr/lib/postgresql/N/bin). PostgreSQL refuses to run as root, so as root every command runs as
 * the `postgres` user, which then owns the folder.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDirectory();
  if (bin === null) throw new Error(privatePostgresUnavailable() ?? 'no PostgreSQL');
  const folder = mkdtempSync(join(tmpdir(), 'tms-private-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot)
    chownSync(
      folder,
      Number((await run('id', ['-u', 'postgres'])).stdout),
      Number((await run('id', ['-g', 'postgres'])).stdout),
    );
  const command = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args]) : run(join(bin, name), args);
  const data = join(folder, 'data');
  const port = await freePort();
  await command('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
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
