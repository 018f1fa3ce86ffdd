/**
 * The routes a user hits on every screen, against the anchors of the same run. The server runs in its
 * own process (node src/main.ts), autocannon in another, on the engine the environment names
 * (PostgreSQL with DATABASE_URL, else embedded PGlite).
 *
 * Measured at two sizes of seed, 10× apart (seed-sizes.ts: BENCH_SIZES, default 100,000 and 1,000,000),
 * each on its own scratch database. At size N (generate_series): 10,000 users; one of them, the viewer,
 * holds N + 100 notifications (a quarter unread; the deep page is N rows deep), 1,000 posts, 1,000
 * likes, 1,000 bookmarks, follows 1,000 users and is followed by 1,000; the others hold N / 5
 * notifications, N posts, N likes, N bookmarks and follow one another N times. So every scenario's
 * main table (notifications, media, media_reactions, bookmarks, follows) holds N rows or more, while
 * what the viewer sees stays the same: a read whose cost grows with N shows it.
 * Env: DATABASE_URL, BENCH_SECONDS (10), BENCH_CONNECTIONS (32), BENCH_SIZES, BENCH_ONLY (a title's
 * part: only those scenarios), BENCH_SERVER_FLAGS (node flags for the server, e.g. --cpu-prof),
 * BENCH_COUNT (instructions or allocations: counted instead of loaded), BENCH_COUNT_FUNCTIONS (with
 * instructions: the N largest functions of each scenario).
 */

import { BookmarksRepository, bookmarksKeyset } from '../src/areas/bookmarks/bookmarks.repository.ts';
import { FollowsRepository, followersKeyset, followingKeyset } from '../src/areas/follows/follows.repository.ts';
import { MediaRepository, ownMediaKeyset, userMediaKeyset } from '../src/areas/media/media.repository.ts';
import { NotificationsRepository, notificationsKeyset } from '../src/areas/notifications/notifications.repository.ts';
import { ReactionsRepository, reactedMediaKeysets } from '../src/areas/reactions/reactions.repository.ts';
import { encodeCursor } from '../src/platform/db/keyset-cursor.ts';
import { pageRequest } from '../src/platform/http/page-query.ts';
import { hashToken } from '../src/platform/secrets/opaque-tokens.ts';
import {
  countFastifyPing,
  measureFastifyPing,
  measureHelloWorld,
  measurePgbench,
  type PingAnswer,
} from './harness/anchors.ts';
import { countingInstructions, thousands } from './harness/instructions.ts';
import { loadSettings, measureLoad } from './harness/load.ts';
import { capturePlans, printPlans } from './harness/query-plans.ts';
import { machineLine, type Row } from './harness/report.ts';
import { measureScenarios, stopAndPrintTable } from './harness/scenarios.ts';
import { createScratchDatabase } from './harness/scratch-database.ts';
import { indexForSearch } from './harness/search-documents.ts';
import { seedSizes, sizeLabel, sizesSection } from './harness/seed-sizes.ts';
import { benchUsersSql } from './harness/seeds.ts';
import { startServer } from './harness/server.ts';
import { settle } from './harness/settle.ts';
import { servicePoolSize } from './harness/twin.ts';

const settings = loadSettings();
const sizes = seedSizes();
const users = 10_000;
const token = 'tms_bench-viewer-token';
const viewer = `md5('bench-user-0')::uuid`;
const engineName = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
console.log(machineLine(engineName, settings));

/** The scratch database at one size (see the header), and the cursor of the page `size` rows deep. */
async function seed(size: number) {
  const started = performance.now();
  let deepCursor = '';
  const others = `md5('bench-user-' || (1 + i % ${users - 1}))::uuid`;
  const scratch = await createScratchDatabase(
    async (conn) => {
      await conn.exec(`${benchUsersSql(users)}
      INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at)
      VALUES (gen_random_uuid(), ${viewer}, '${hashToken(token)}', now(), now(), now() + interval '30 days');`);
      const notificationRows = (owner: string, count: number) => `
      INSERT INTO notifications (id, owner_id, type, data, dedup_open, read_at, pushed_at, created_at)
      SELECT gen_random_uuid(), ${owner}, 'user.level.up',
             jsonb_build_object('level', i % 90 + 1, 'previousLevel', i % 90, 'experience', 50 * (i % 90 + 1) * (i % 90 + 2)),
             false, CASE WHEN i % 4 = 0 THEN NULL ELSE timestamptz '2026-06-01' END, timestamptz '2026-06-01',
             timestamptz '2026-01-01' + i * interval '1 second'
      FROM generate_series(1, ${count}) AS i`;
      await conn.exec(notificationRows(viewer, size + 100));
      await conn.exec(notificationRows(others, Math.floor(size / 5)));
      // Marked rendered: the seeded media have no files, and the media-variants job would otherwise look
      // for them every minute during the scenarios (work the twin does not do).
      const mediaRows = (owner: string, count: number) => `
      INSERT INTO media (id, owner_id, kind, original_key, original_format, byte_size, width, height, content_hash,
                         describe_status, created_at, updated_at, variants_rendered_at)
      SELECT gen_random_uuid(), ${owner}, 'post', 'originals/bench/' || i, 'jpeg', 2000000, 4000, 3000, md5(i::text),
             'skipped', timestamptz '2026-01-01' + i * interval '1 minute', timestamptz '2026-01-01', timestamptz '2026-01-01'
      FROM generate_series(1, ${count}) AS i`;
      await conn.exec(mediaRows(viewer, 1000));
      await conn.exec(mediaRows(others, size));
      await conn.exec(`
      INSERT INTO media_reactions (id, user_id, media_id, type, created_at)
      SELECT gen_random_uuid(), ${viewer}, id, 'like', created_at FROM media WHERE owner_id <> ${viewer} LIMIT 1000;
      INSERT INTO bookmarks (id, user_id, media_id, created_at, updated_at)
      SELECT gen_random_uuid(), ${viewer}, id, created_at, created_at FROM media WHERE owner_id <> ${viewer} LIMIT 1000;
      -- The others like and keep the others' media, one each: the viewer is the heavy user a plan made
      -- for the average one must still serve (a bitmap read and sort of all 1,000 would show here).
      INSERT INTO media_reactions (id, user_id, media_id, type, created_at)
      SELECT gen_random_uuid(), md5('bench-user-' || (1 + n % ${users - 1}))::uuid, id, 'like', created_at
      FROM (SELECT id, created_at, row_number() OVER () AS n FROM media WHERE owner_id <> ${viewer}) AS others;
      INSERT INTO bookmarks (id, user_id, media_id, created_at, updated_at)
      SELECT gen_random_uuid(), md5('bench-user-' || (1 + n % ${users - 1}))::uuid, id, created_at, created_at
      FROM (SELECT id, created_at, row_number() OVER () AS n FROM media WHERE owner_id <> ${viewer}) AS others;
      INSERT INTO follows (follower_id, followee_id, created_at)
      SELECT ${viewer}, md5('bench-user-' || i)::uuid, timestamptz '2026-01-01' + i * interval '1 minute'
      FROM generate_series(1, 1000) AS i;
      INSERT INTO follows (follower_id, followee_id, created_at)
      SELECT md5('bench-user-' || i)::uuid, ${viewer}, timestamptz '2026-01-01' + i * interval '1 minute'
      FROM generate_series(1001, 2000) AS i;
      -- The others follow one another: user a follows a + 1 + k (k = 0, 1, ...), never the viewer.
      INSERT INTO follows (follower_id, followee_id, created_at)
      SELECT md5('bench-user-' || (1 + i % ${users - 1}))::uuid,
             md5('bench-user-' || (1 + (i % ${users - 1} + 1 + i / ${users - 1}) % ${users - 1}))::uuid,
             timestamptz '2026-01-01' + i * interval '1 second'
      FROM generate_series(0, ${size - 1}) AS i;`);
      // As autovacuum would leave it: statistics, and the visibility map that index-only scans need.
      await conn.exec('VACUUM ANALYZE');
      const [row] = await conn.query<{ created_at: Date | string; id: string }>(
        `SELECT created_at, id FROM notifications WHERE owner_id = ${viewer}
       ORDER BY created_at DESC, id DESC OFFSET ${size - 1} LIMIT 1`,
      );
      deepCursor = encodeCursor(notificationsKeyset.name, [new Date(row!.created_at), row!.id]);
    },
    { afterSeed: indexForSearch },
  );
  console.log(`seeded ${sizeLabel(size)} rows a table in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { scratch, deepCursor };
}

/** Every scenario at one size: its table (and the plans, on PostgreSQL); the rows for the sizes' table. */
async function measureAt(size: number, anchors: boolean): Promise<Row[]> {
  console.log(`\n### seed of ${sizeLabel(size)}`);
  const { scratch, deepCursor } = await seed(size);
  try {
    const hello = anchors ? await measureHelloWorld(settings) : null;
    const pgbench = anchors && scratch.url !== null ? await measurePgbench(scratch.url, settings) : null;
    const server = await startServer(scratch.serverEnv);
    const viewerId = (
      await (await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json()
    ).data.id as string;
    const headers = { authorization: `Bearer ${token}` };
    // Warm-up (JIT, connection pool, prepared statements, session cache), not measured.
    await measureLoad(`${server.url}/api/ping`, { ...settings, seconds: 2 });
    await measureLoad(`${server.url}/api/users/me/notifications`, { ...settings, seconds: 2 }, { headers });
    await settle();
    const notifications = '/api/users/me/notifications';
    const table = await measureScenarios({ server, databaseUrl: scratch.url, serverEnv: scratch.serverEnv, settings }, [
      { title: 'GET /api/ping (anchor, before the scenarios)', path: '/api/ping' },
      ...[
        { title: 'notifications, first page (20)', path: notifications },
        { title: 'notifications, the page the seed size deep', path: `${notifications}?cursor=${deepCursor}` },
        { title: 'notifications, unread only', path: `${notifications}?filter=unread` },
        { title: 'notifications unread-count', path: `${notifications}/unread-count` },
        { title: 'GET /api/auth/me', path: '/api/auth/me' },
        { title: 'my media', path: '/api/users/me/media' },
        { title: "a user's media", path: `/api/users/${viewerId}/media` },
        { title: 'my likes', path: '/api/users/me/likes' },
        { title: 'my bookmarks', path: '/api/users/me/bookmarks' },
        { title: 'whom I follow', path: '/api/users/me/following' },
        { title: 'my followers', path: '/api/users/me/followers' },
      ].map((scenario) => ({ ...scenario, headers })),
      { title: 'GET /api/ping (anchor, after the scenarios)', path: '/api/ping' },
    ]);
    const pingResponse = await fetch(`${server.url}/api/ping`);
    if (!pingResponse.ok) throw new Error(`ping answered ${pingResponse.status}`);
    const pingAnswer: PingAnswer = {
      body: Buffer.from(await pingResponse.arrayBuffer()),
      contentType: pingResponse.headers.get('content-type') ?? 'application/json',
    };
    const rss = await stopAndPrintTable(server, table);
    if (anchors && scratch.url !== null) await printFastifyPing(scratch.url, pingAnswer);
    if (hello !== null) {
      console.log(
        `\nanchors: node:http hello-world ${Math.round(hello.rps)} req/s (p99 ${hello.p99} ms); ` +
          (pgbench === null
            ? 'pgbench not run (PGlite or no binary)'
            : pgbench.map((run) => `pgbench -S ${run.mode} ${Math.round(run.tps)} tps`).join(', ')),
      );
    }
    console.log(
      `server: first answer ${Math.round(server.firstAnswerMs)} ms after spawn; ${Math.round(rss)} MB resident after the run`,
    );
    if (scratch.url !== null) await printHotPlans(scratch.url, viewerId, deepCursor);
    return table;
  } finally {
    await scratch.drop();
  }
}

/**
 * Ping through Fastify alone, bare and with the access line (fastify-ping-server.ts), alternated, best
 * of two each: beside ping and its twin above, what the framework and the access line cost ping.
 * Counted (BENCH_COUNT=instructions), each is counted as the service's ping is, for the table's row.
 */
async function printFastifyPing(databaseUrl: string, answer: PingAnswer) {
  if (countingInstructions()) {
    const counted = [];
    for (const mode of ['bare', 'logged'] as const) {
      const { mainThread, allThreads, spread, idle } = await countFastifyPing(
        databaseUrl,
        servicePoolSize(),
        answer,
        mode,
      );
      counted.push(
        `${mode === 'bare' ? 'bare' : 'with a logger and the access line'} ${thousands(mainThread)} ` +
          `(spread ${Math.round(spread * 100)} %, ${thousands(idle)} idle taken off; all threads ${thousands(allThreads)})`,
      );
    }
    console.log(`ping through Fastify alone, instructions a request on the main thread: ${counted.join('; ')}`);
    return;
  }
  const best = { bare: 0, logged: 0 };
  for (let round = 0; round < 2; round++) {
    for (const mode of ['bare', 'logged'] as const) {
      await settle();
      const result = await measureFastifyPing(databaseUrl, servicePoolSize(), answer, mode, settings);
      if (result.bad > 0) throw new Error(`ping through Fastify alone (${mode}) failed ${result.bad} answers`);
      best[mode] = Math.max(best[mode], result.rps);
    }
  }
  console.log(
    `ping through Fastify alone (its statement and bytes, best of two): bare ${Math.round(best.bare)} req/s, ` +
      `with a logger and the access line ${Math.round(best.logged)} req/s`,
  );
}

async function printHotPlans(url: string, viewerId: string, deepCursor: string) {
  const first = (keyset: Parameters<typeof pageRequest>[1]) => pageRequest({}, keyset);
  const plans = await capturePlans(url, {
    'notifications, first page': (tx) =>
      new NotificationsRepository(tx).feedPage(viewerId, false, first(notificationsKeyset)),
    'notifications, deep page': (tx) =>
      new NotificationsRepository(tx).feedPage(
        viewerId,
        false,
        pageRequest({ cursor: deepCursor }, notificationsKeyset),
      ),
    'notifications, unread only': (tx) =>
      new NotificationsRepository(tx).feedPage(viewerId, true, first(notificationsKeyset)),
    'my media': (tx) => new MediaRepository(tx).listOwnPosts(viewerId, first(ownMediaKeyset)),
    "a user's media": (tx) => new MediaRepository(tx).listPublicPosts(viewerId, first(userMediaKeyset), []),
    'my likes': (tx) =>
      new ReactionsRepository(tx).listMediaOfUser(
        viewerId,
        'like',
        'visible',
        viewerId,
        first(reactedMediaKeysets.like),
        [],
      ),
    'my bookmarks': (tx) => new BookmarksRepository(tx).list(viewerId, { kind: 'all' }, first(bookmarksKeyset)),
    'whom I follow': (tx) => new FollowsRepository(tx).following(viewerId, first(followingKeyset), viewerId),
    'my followers': (tx) => new FollowsRepository(tx).followers(viewerId, first(followersKeyset), viewerId),
  });
  printPlans(plans);
}

const started = performance.now();
const rowsBySize: Row[][] = [];
for (const [index, size] of sizes.entries()) rowsBySize.push(await measureAt(size, index === 0));
const bothSizes = sizesSection(sizes, rowsBySize);
if (bothSizes !== '') console.log(bothSizes);
console.log(`\nthe whole run took ${((performance.now() - started) / 60_000).toFixed(1)} min`);
