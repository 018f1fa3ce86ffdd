/**
 * Notifications benchmark (PostgreSQL only): seeds 1,000,000 notifications over 10,000 users, one of
 * them with 100,000, then measures with autocannon, for that user: the list's first page, a page
 * 90,000 rows deep (keyset cursor), unread-count and mark-all-read; next to a bare node:http
 * hello-world measured in the same run. Prints a Markdown table (req/s, p99, ratio to hello-world).
 * Env: DATABASE_URL (required), NOTIFICATIONS_BENCH_SECONDS (default 10), NOTIFICATIONS_BENCH_CONNECTIONS (default 20).
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import pino from 'pino';
import { LocalBroadcast } from '../src/adapters/broadcast/index.ts';
import { LogPushProvider } from '../src/adapters/push/index.ts';
import { LocalStorage } from '../src/adapters/storage/index.ts';
import { buildApp } from '../src/app.ts';
import { notificationsKeyset } from '../src/areas/notifications/notifications.repository.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { openPostgres } from '../src/platform/db/postgres-database.ts';
import { encodeCursor } from '../src/platform/http/pagination.ts';
import { MemoryRateLimitStore } from '../src/platform/http/rate-limit.ts';

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl?.startsWith('postgres')) {
  console.log('skipped: the notifications benchmark needs DATABASE_URL=postgres://...');
  process.exit(0);
}
const seconds = Number(process.env.NOTIFICATIONS_BENCH_SECONDS ?? 10);
const connections = Number(process.env.NOTIFICATIONS_BENCH_CONNECTIONS ?? 20);
const users = 10_000;
const heavyRows = 100_000;
const otherRows = 900_000;

const name = `tms_bench_${process.pid}`;
const withDatabase = (database: string) => Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString();
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const database = openPostgres(withDatabase(name), 16);

try {
  await migrate(database);
  const started = performance.now();
  const seed = new pg.Client({ connectionString: withDatabase(name) });
  await seed.connect();
  // User i has id md5('bench-user-' || i); user 0 is the heavy one.
  await seed.query(`
    INSERT INTO users (id, email, username, sponsor_code, settings, created_at, updated_at)
    SELECT md5('bench-user-' || i)::uuid, 'bench' || i || '@example.test', 'bench' || i, 'B' || lpad(i::text, 7, '0'), '{}'::jsonb,
           timestamptz '2026-01-01', timestamptz '2026-01-01'
    FROM generate_series(0, ${users - 1}) AS i`);
  const insertRows = (owner: string, count: number) => `
    INSERT INTO notifications (id, owner_id, type, data, dedup_key, dedup_open, read_at, pushed_at, created_at)
    SELECT gen_random_uuid(), ${owner}, 'user.level.up',
           jsonb_build_object('level', i % 90 + 1, 'previousLevel', i % 90, 'experience', 50 * (i % 90 + 1) * (i % 90 + 2)),
           NULL, false,
           CASE WHEN i % 4 = 0 THEN NULL ELSE timestamptz '2026-06-01' END, timestamptz '2026-06-01',
           timestamptz '2026-01-01' + (i / 3) * interval '1 second'
    FROM generate_series(1, ${count}) AS i`;
  await seed.query(insertRows(`md5('bench-user-0')::uuid`, heavyRows));
  await seed.query(insertRows(`md5('bench-user-' || (1 + i % ${users - 1}))::uuid`, otherRows));
  // As autovacuum would leave it: statistics, and the visibility map that lets counts use index-only scans.
  await seed.query('VACUUM ANALYZE notifications');
  await seed.query('ANALYZE users');
  const { rows: deep } = await seed.query(
    `SELECT created_at, id FROM notifications WHERE owner_id = md5('bench-user-0')::uuid ORDER BY created_at DESC, id DESC OFFSET 89999 LIMIT 1`,
  );
  await seed.end();
  console.log(
    `seeded ${users} users and ${heavyRows + otherRows} notifications in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const config = loadConfig({
    ...process.env,
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'silent',
    DATABASE_URL: withDatabase(name),
  });
  const silent = pino({ level: 'silent' });
  const { app, services } = await buildApp(
    {
      config,
      database,
      clock: systemClock,
      mailer: { send: async () => {} },
      rateLimitStore: new MemoryRateLimitStore(systemClock),
      storage: new LocalStorage(mkdtempSync(join(tmpdir(), 'tms-bench-'))),
      push: new LogPushProvider(silent),
      broadcast: new LocalBroadcast(),
    },
    { logger: false },
  );
  const heavyId = (await database.pool.query(`SELECT md5('bench-user-0')::uuid AS id`)).rows[0].id as string;
  const { accessToken } = await services.areas.accounts.sessions.create(heavyId, {
    ip: '127.0.0.1',
    userAgent: 'bench',
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const hello = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/plain' }).end('hello world'),
  );
  await new Promise<void>((resolve) => hello.listen(0, '127.0.0.1', resolve));
  const helloUrl = `http://127.0.0.1:${(hello.address() as AddressInfo).port}/`;

  const measure = async (title: string, url: string, method: 'GET' | 'POST' = 'GET') => {
    const result = await autocannon({
      url,
      method,
      connections,
      duration: seconds,
      headers: url.startsWith(appUrl) ? { authorization: `Bearer ${accessToken}` } : {},
    });
    const bad = result.non2xx + result.errors;
    return { title, rps: result.requests.average, p99: result.latency.p99, bad };
  };

  const deepCursor = encodeCursor(notificationsKeyset.name, [deep[0].created_at, deep[0].id]);
  const base = `${appUrl}/api/users/me/notifications`;
  const results = [
    await measure('node:http hello-world', helloUrl),
    await measure('list, first page (limit 20)', base),
    await measure('list, 90,000 rows deep (cursor)', `${base}?cursor=${deepCursor}`),
    await measure('list, unread only, first page', `${base}?filter=unread`),
    await measure('unread-count', `${base}/unread-count`),
    await measure('mark-all-read (first call switches 75,000 rows)', `${base}/mark-all-read`, 'POST'),
  ];
  const baseline = results[0]!.rps;
  console.log(`\n${connections} connections, ${seconds} s each, PostgreSQL, one Node process serving\n`);
  console.log('| scenario | req/s | p99 (ms) | vs hello-world | non-2xx or errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const row of results) {
    console.log(
      `| ${row.title} | ${Math.round(row.rps)} | ${row.p99} | ${(row.rps / baseline).toFixed(3)} | ${row.bad} |`,
    );
  }
  await app.close();
  hello.close();
} finally {
  await database.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
