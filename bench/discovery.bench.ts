/**
 * Discovery at scale: media placed around real cities, read by place, on the map, by trend and by
 * hashtag, and users found by name, against GET /api/ping measured in the same run. The server runs in
 * its own process (node src/main.ts), autocannon in another; on PostgreSQL the query plan of each
 * scenario is printed too.
 *
 * Measured at two sizes of seed, 10× apart (seed-sizes.ts: BENCH_SIZES, default 100,000 and
 * 1,000,000), each on its own scratch database. At size N (generate_series, never the API): 10,000
 * users owning N media spread evenly over N / 1,000 cities (Paris and the most populous others of the
 * geography reference data), 1,000 a city, each within about 10 km of its city, with two hashtags of a
 * pool of 300 and one of its own ("place" and its number: N + 300 tags in all, a million and more at
 * the larger size); 0.3 N likes over the last week; N more users with made-up names (syllables), every
 * user in the search index. So a city, the map around Paris, a name and a tag's prefix keep the same
 * density while the tables grow 10×. Beyond the cities of the smallest size (the base: 100 at the
 * default 100,000), a larger seed adds only cities whose media all fall in one of the world map's
 * zoom-1 cells the base's media fall in, and none of the country with most base cities (trending's):
 * the world zoom shows the same cells, and trending ranks as many cities' media, at every size.
 * Env: DATABASE_URL, BENCH_SECONDS (10), BENCH_CONNECTIONS (32), BENCH_SIZES, BENCH_ONLY (a title's part).
 */

import { GeoMediaRepository } from '../src/areas/discovery/geo-media.repository.ts';
import { MapCellsRepository } from '../src/areas/discovery/map-cells.repository.ts';
import { NearbyRepository, nearbyKeyset } from '../src/areas/discovery/nearby.repository.ts';
import { HashtagsRepository, suggestionsKeyset } from '../src/areas/hashtags/hashtags.repository.ts';
import { UserSearchRepository, userSearchKeyset } from '../src/areas/search/user-search.repository.ts';
import type { Transactions } from '../src/platform/db/transactions.ts';
import { pageRequest } from '../src/platform/http/page-query.ts';
import { hashToken } from '../src/platform/secrets/opaque-tokens.ts';
import { buildDerivedTables } from './harness/derived-tables.ts';
import { loadSettings, measureLoad } from './harness/load.ts';
import { capturePlans, printPlans } from './harness/query-plans.ts';
import { machineLine, type Row } from './harness/report.ts';
import { measureScenarios, stopAndPrintTable } from './harness/scenarios.ts';
import { createScratchDatabase } from './harness/scratch-database.ts';
import { indexForSearch } from './harness/search-documents.ts';
import { seedSizes, sizeLabel, sizesSection } from './harness/seed-sizes.ts';
import { benchNamedUsersSql, benchUsersSql, searchDocumentsOfUsersSql, withoutIndexes } from './harness/seeds.ts';
import { startServer } from './harness/server.ts';
import { settle } from './harness/settle.ts';

const settings = loadSettings();
const sizes = seedSizes();
const users = 10_000;
const mediaPerCity = 1_000;
// The cities of the smallest size: a larger seed adds cities only where they change nothing a
// scenario reads (see the header).
const baseCities = Math.max(1, Math.floor(Math.min(...sizes) / mediaPerCity));
// How far from its city a media may lie, in degrees of latitude and of longitude (about 10 km).
const spreadDegrees = 0.1;
/** The world map's zoom-1 cell (22.5° a side, map-grid.ts) of a position, as one number. */
const worldCell = (latitude: string, longitude: string) =>
  `(floor((${latitude} + 90) / 22.5)::int * 100 + floor((${longitude} + 180) / 22.5)::int)`;
/** The world cell of a corner of a city's spread: its south-west (`-`) or north-east (`+`). */
const spreadCorner = (sign: '-' | '+') =>
  worldCell(`latitude ${sign} ${spreadDegrees}`, `longitude ${sign} ${spreadDegrees}`);
const engineName = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
console.log(machineLine(engineName, settings));

// Where the scenarios look: Paris (always among the seeded cities), and the country with most of the base cities.
const paris = { latitude: 48.8534, longitude: 2.3488 };
// A name's first syllables, as a user types it (seeds.ts: benchNamedUsersSql): 1 name in 8,000 starts
// so, fewer than a page at 100,000 (the typos' statement runs too) and more at a million.
const searchedName = 'kalomi';
// Like for like at both sizes: a first letter typed (a twentieth of the names start with it: the prefixes
// fill the page), and a typo no name starts with (the typos' statement answers).
const typedLetters = 'ka';
const typo = 'kalx';

/** The scratch database at one size (see the header), and the country with most of the base cities. */
async function seed(size: number) {
  const started = performance.now();
  let busiestCountry = 'IN';
  // The media are marked rendered (variants_rendered_at): they have no files, and the media-variants
  // job would otherwise look for them every minute during the scenarios.
  const scratch = await createScratchDatabase(
    async (conn) => {
      await conn.exec(`${benchUsersSql(users)}
      CREATE TEMPORARY TABLE bench_ranked_cities AS
        SELECT row_number() OVER (ORDER BY (name = 'Paris' AND country_code = 'FR') DESC, population DESC, id) AS rank,
               latitude, longitude, country_code,
               -- The zoom-1 cell all the city's media fall in; null when their spread crosses a cell's edge.
               CASE WHEN ${spreadCorner('-')} = ${spreadCorner('+')} THEN ${spreadCorner('-')} END AS spread_cell
        FROM cities;
      -- The cells the base cities' media fall in: those of each corner of their spread.
      CREATE TEMPORARY TABLE bench_base_cells AS
        SELECT DISTINCT ${worldCell(`latitude + ${spreadDegrees} * sy`, `longitude + ${spreadDegrees} * sx`)} AS cell
        FROM bench_ranked_cities, (VALUES (-1), (1)) AS y(sy), (VALUES (-1), (1)) AS x(sx)
        WHERE rank <= ${baseCities};
      CREATE TEMPORARY TABLE bench_trending_country AS
        SELECT country_code FROM bench_ranked_cities WHERE rank <= ${baseCities}
        GROUP BY country_code ORDER BY count(*) DESC, country_code LIMIT 1;
      CREATE TEMPORARY TABLE bench_cities AS
        SELECT row_number() OVER (ORDER BY rank) - 1 AS n, latitude, longitude, country_code
        FROM bench_ranked_cities
        WHERE rank <= ${baseCities}
           OR (country_code <> (SELECT country_code FROM bench_trending_country)
               AND spread_cell IN (SELECT cell FROM bench_base_cells))
        ORDER BY rank
        LIMIT ${Math.max(1, Math.floor(size / mediaPerCity))};
      CREATE TEMPORARY TABLE bench_tags AS
        SELECT i AS n, 'tag' || i || (ARRAY['sun','sea','food','hike','city','snow'])[1 + i % 6] AS tag
        FROM generate_series(0, 299) AS i;
      INSERT INTO media (id, owner_id, kind, original_key, original_format, byte_size, width, height, content_hash,
                         describe_status, hashtags, latitude, longitude, country_code, likes_count, created_at, updated_at,
                         variants_rendered_at)
      SELECT md5('bench-media-' || i)::uuid, md5('bench-user-' || (i % ${users}))::uuid, 'post', 'originals/bench/' || i,
             'jpeg', 2000000, 4000, 3000, md5(i::text), 'skipped',
             ARRAY[(SELECT tag FROM bench_tags WHERE n = i % 300), (SELECT tag FROM bench_tags WHERE n = (i::bigint * 7 + 3) % 300),
                   'place' || i],
             c.latitude + ${spreadDegrees} * (((i::bigint * 7919) % 2001) - 1000) / 1000.0,
             c.longitude + ${spreadDegrees} * (((i::bigint * 104729) % 2001) - 1000) / 1000.0,
             c.country_code, (i::bigint * 31) % 101,
             timestamptz '2026-11-01' + (i % 86400) * interval '1 minute', timestamptz '2026-11-01', timestamptz '2026-11-01'
      FROM generate_series(0, ${size - 1}) AS i
      JOIN bench_cities c ON c.n = i % (SELECT count(*) FROM bench_cities);
      INSERT INTO media_reactions (id, user_id, media_id, type, created_at)
      SELECT gen_random_uuid(), md5('bench-user-' || (i % ${users}))::uuid, md5('bench-media-' || (i * 3))::uuid, 'like',
             now() - (i % 600000) * interval '1 second'
      FROM generate_series(0, ${Math.floor((size * 3) / 10) - 1}) AS i;
      INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at)
      VALUES (gen_random_uuid(), md5('bench-user-0')::uuid, '${hashToken('tms_bench-viewer-token')}', now(), now(), now() + interval '30 days');`);
      // The users found by name, and everyone's search document, with the tables' own indexes built after.
      await withoutIndexes(conn, 'users', () => conn.exec(benchNamedUsersSql(size)));
      await withoutIndexes(conn, 'search_documents', () => conn.exec(searchDocumentsOfUsersSql));
      await conn.exec('VACUUM ANALYZE');
      const [row] = await conn.query<{ country_code: string }>('SELECT country_code FROM bench_trending_country');
      busiestCountry = row?.country_code ?? busiestCountry;
    },
    {
      // The search index, then the derived tables the routes read, built by their jobs' own methods.
      afterSeed: async (database) => {
        await indexForSearch(database);
        await buildDerivedTables(database);
      },
    },
  );
  console.log(
    `seeded ${sizeLabel(size)} media and named users in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return { scratch, busiestCountry };
}

/** What a 1024 × 700 map shows around Paris at a zoom (a view is about 360 / 2^zoom degrees wide). */
const viewAt = (zoom: number) => {
  const width = 360 / 2 ** zoom;
  const height = width * 0.68;
  return {
    south: paris.latitude - height / 2,
    west: paris.longitude - width / 2,
    north: paris.latitude + height / 2,
    east: paris.longitude + width / 2,
  };
};
const boxQuery = (box: ReturnType<typeof viewAt>) =>
  `south=${box.south}&west=${box.west}&north=${box.north}&east=${box.east}`;
const worldBox = 'south=-85&west=-180&north=85&east=180';

/** Every scenario at one size: its table (and the plans, on PostgreSQL); the rows for the sizes' table. */
async function measureAt(size: number): Promise<Row[]> {
  console.log(`\n### seed of ${sizeLabel(size)}`);
  const { scratch, busiestCountry } = await seed(size);
  try {
    const serverEnv = scratch.serverEnv;
    const server = await startServer(serverEnv);
    await measureLoad(`${server.url}/api/ping`, { ...settings, seconds: 2 });
    await measureLoad(`${server.url}/api/media/nearby?lat=${paris.latitude}&lng=${paris.longitude}`, {
      ...settings,
      seconds: 2,
    });
    await settle();
    const table = await measureScenarios({ server, databaseUrl: scratch.url, serverEnv, settings }, [
      { title: 'GET /api/ping (anchor, before the scenarios)', path: '/api/ping' },
      {
        title: 'nearby, 5 km around Paris (20 items)',
        path: `/api/media/nearby?lat=${paris.latitude}&lng=${paris.longitude}&distance=5000`,
      },
      {
        title: 'in-bounds, street view (Paris, zoom 14: media)',
        path: `/api/media/in-bounds?${boxQuery(viewAt(14))}&zoom=14`,
      },
      {
        title: 'in-bounds, city view (Paris, zoom 12: clusters)',
        path: `/api/media/in-bounds?${boxQuery(viewAt(12))}&zoom=12`,
      },
      { title: 'in-bounds, world zoom (zoom 1)', path: `/api/media/in-bounds?${worldBox}&zoom=1` },
      {
        title: `trending in the country with most cities (${busiestCountry}, the same at every size), 7 days`,
        path: `/api/media/trending?country=${busiestCountry}`,
      },
      { title: 'hashtag autocomplete "tag1"', path: '/api/media/hashtags/autocomplete?q=tag1' },
      // A first letter typed: every media's own tag starts with it (N tags).
      { title: 'hashtag autocomplete "p" (a first letter)', path: '/api/media/hashtags/autocomplete?q=p' },
      // No tag starts with it: the similar tags' statement answers (place1234 and its neighbours).
      { title: 'hashtag autocomplete "place1234x" (a typo)', path: '/api/media/hashtags/autocomplete?q=place1234x' },
      { title: `user search "${searchedName}"`, path: `/api/users/search?q=${searchedName}` },
      { title: `user search "${typedLetters}" (prefixes fill the page)`, path: `/api/users/search?q=${typedLetters}` },
      { title: `user search "${typo}" (a typo)`, path: `/api/users/search?q=${typo}` },
      { title: 'GET /api/ping (anchor, after the scenarios)', path: '/api/ping' },
    ]);
    const rss = await stopAndPrintTable(server, table);
    console.log(`\nserver: ${Math.round(rss)} MB resident after the run`);
    if (scratch.url !== null) await printDiscoveryPlans(scratch.url, busiestCountry);
    return table;
  } finally {
    await scratch.drop();
  }
}

async function printDiscoveryPlans(url: string, busiestCountry: string) {
  const page = (keyset: Parameters<typeof pageRequest>[1]) => pageRequest({}, keyset);
  const plans = await capturePlans(url, {
    nearby: (tx) => new NearbyRepository(tx).nearby(paris, 5000, page(nearbyKeyset), []),
    // Zoom 12 is precomputed (map-grid.ts): the cells and their representatives' positions, in one statement.
    'in-bounds, city view': (tx) => new MapCellsRepository(tx).cellsIn(viewAt(12), 12),
    'in-bounds, world zoom': (tx) =>
      new MapCellsRepository(tx).cellsIn({ south: -85, west: -180, north: 85, east: 180 }, 1),
    // Deeper than the precomputed zooms, the box's media are read first (geo-media.service.ts).
    'in-bounds, street view': (tx) => new GeoMediaRepository(tx).inBox(viewAt(14), 100),
    // A narrow box from pole to pole over the empty Atlantic: the index reads its rectangle, not every latitude.
    'in-bounds, a narrow box from pole to pole': (tx) =>
      new GeoMediaRepository(tx).inBox({ south: -85, west: -30, north: 85, east: -29.9 }, 100),
    trending: (tx) =>
      new GeoMediaRepository(tx).trendingRanking(busiestCountry, new Date(Date.now() - 7 * 86_400_000), null, 1000),
    ...Object.fromEntries(
      ['tag1', 'p', 'place1234x'].map((q) => [
        `hashtag autocomplete "${q}"`,
        (tx: Transactions) => new HashtagsRepository(tx).suggestions(q, pageRequest({}, suggestionsKeyset, 10)),
      ]),
    ),
    ...Object.fromEntries(
      [searchedName, typedLetters, typo].map((q) => [
        `user search "${q}"`,
        (tx: Transactions) => new UserSearchRepository(tx).search(q, pageRequest({}, userSearchKeyset), null),
      ]),
    ),
  });
  printPlans(plans);
}

const started = performance.now();
const rowsBySize: Row[][] = [];
for (const size of sizes) rowsBySize.push(await measureAt(size));
const bothSizes = sizesSection(sizes, rowsBySize);
if (bothSizes !== '') console.log(bothSizes);
console.log(`\nthe whole run took ${((performance.now() - started) / 60_000).toFixed(1)} min`);
