/**
 * The service as an operator starts it: `node src/main.ts` with an empty DATA_DIR (and,
 * on PostgreSQL, an empty database of its own), the CLI run beside it, then a clean SIGTERM stop.
 * On PGlite the new database is a copy of the migrated template, as after `npm ci` (a start without
 * one migrates its own: src/platform/db/pglite-template.test.ts).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import pg from 'pg';
import { createEmptyPostgresDatabase, testEngine } from '../helpers/database.ts';
import { migratedTemplateFolder } from '../helpers/pglite-test-database.ts';
import { freePort, waitForPing } from '../helpers/processes.ts';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

describe('start-up with an empty DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-startup-'));
  let database: { url: string; drop(): Promise<void> } | null = null;
  let server: ChildProcess;
  let base: string;
  let env: NodeJS.ProcessEnv;
  const logs: string[] = [];

  before(async () => {
    if (testEngine() === 'postgres') database = await createEmptyPostgresDatabase(process.env.DATABASE_URL!);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...process.env,
      APP_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: database?.url ?? '',
      DATABASE_TEMPLATE_DIR: database === null ? await migratedTemplateFolder() : '',
      SMTP_URL: '',
      REDIS_URL: '',
    };
    server = spawn(process.execPath, ['src/main.ts'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    await waitForPing(base, server);
  });

  after(async () => {
    if (server.exitCode === null) server.kill('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /api/ping and has created its database', async () => {
    const ping = await fetch(`${base}/api/ping`);
    assert.equal(ping.status, 200);
    if (database === null) {
      assert.ok(existsSync(join(dataDir, 'db', 'PG_VERSION')), 'DATA_DIR/db holds a PostgreSQL data directory');
      assert.match(logs.join(''), /"event":"db\.fromTemplate"/, 'copied from the migrated template');
    } else {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM schema_migrations');
        assert.ok(rows[0]!.count > 0, 'the migrations ran in the fresh database');
      } finally {
        await client.end();
      }
    }
  });

  it('runs the CLI while the server runs, and the server sees the new user', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        'src/cli.ts',
        'users:create',
        '--email',
        'operator@example.test',
        '--password',
        'operator pass 42',
        '--username',
        'operator',
        '--confirmed',
      ],
      { cwd: root, env },
    );
    const id = stdout.trim();
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'operator', password: 'operator pass 42' }),
    });
    assert.equal(login.status, 200);
    const body = (await login.json()) as any;
    assert.equal(body.included[0].id, id);
    assert.equal(body.included[0].attributes.emailConfirmed, true);

    const again = await run(
      process.execPath,
      ['src/cli.ts', 'users:create', '--email', 'operator@example.test', '--password', 'operator pass 42'],
      {
        cwd: root,
        env,
      },
    ).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    assert.ok(again !== null, 'a duplicate fails');
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim().split('\n').length, 1, again.stderr);
    assert.match(again.stderr, /^error: emailTaken/);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    const code = await exited;
    assert.equal(code, 0, logs.join(''));
    if (database === null) assert.ok(!existsSync(join(dataDir, 'cli.sock')), 'the command socket is removed');
  });
});
