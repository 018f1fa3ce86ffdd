/** Seed SQL shared by the benchmarks (generate_series, never the API). */
import type { RawConnection } from '../../src/platform/db/database.ts';

/** `count` users whose ids are md5('bench-user-' || i)::uuid, for i from 0. */
export const benchUsersSql = (count: number) => `
    INSERT INTO users (id, email, username, nickname, sponsor_code, email_confirmed_at, created_at, updated_at)
    SELECT md5('bench-user-' || i)::uuid, 'bench' || i || '@example.test', 'bench' || i, 'Bench ' || i,
           'B' || lpad(i::text, 7, '0'), timestamptz '2026-01-01', timestamptz '2026-01-01', timestamptz '2026-01-01'
    FROM generate_series(0, ${count - 1}) AS i;`;

/** Syllables of the made-up names: 20^4 = 160,000 names of four, then the same with a number. */
const syllables = [
  'ka',
  'lo',
  'mi',
  'ra',
  'te',
  'su',
  'no',
  'vi',
  'da',
  'ne',
  'po',
  'ri',
  'sa',
  'tu',
  'be',
  'la',
  'mo',
  'zi',
  'fe',
  'go',
];
const syllable = (position: number) =>
  `(ARRAY['${syllables.join("','")}'])[1 + (i / ${syllables.length ** position}) % ${syllables.length}]`;

/**
 * `count` more users with made-up names, as user search finds them: a username of four syllables
 * ("kalomira", then "kalomira1"... past 160,000) and a nickname of two words ("Mira Kalo").
 */
export const benchNamedUsersSql = (count: number) => `
    INSERT INTO users (id, email, username, nickname, sponsor_code, email_confirmed_at, created_at, updated_at)
    SELECT md5('bench-named-user-' || i)::uuid, 'named' || i || '@example.test',
           ${syllable(0)} || ${syllable(1)} || ${syllable(2)} || ${syllable(3)}
             || CASE WHEN i >= 160000 THEN (i / 160000)::text ELSE '' END,
           initcap(${syllable(2)} || ${syllable(3)}) || ' ' || initcap(${syllable(0)} || ${syllable(1)}),
           'N' || lpad(i::text, 7, '0'), timestamptz '2026-01-01', timestamptz '2026-01-01', timestamptz '2026-01-01'
    FROM generate_series(0, ${count - 1}) AS i;`;

/**
 * Every user's search document, as the search area writes it (src/areas/search/sources.ts: the
 * username and the nickname lower-cased and unaccented, their words in the `simple` configuration).
 */
export const searchDocumentsOfUsersSql = `
    INSERT INTO search_documents (kind, source_id, name, label, body, document, source_updated_at, indexed_at)
    SELECT 'user', id, name, label, concat_ws(' ', name, label), to_tsvector('simple', concat_ws(' ', name, label)),
           updated_at, now()
    FROM (SELECT id, updated_at, lower(unaccent(coalesce(username::text, ''))) AS name,
                 lower(unaccent(coalesce(nickname, ''))) AS label FROM users) AS texts;`;

/**
 * Runs a bulk insert into `table` without its indexes (those that back no constraint), then builds
 * them again as they were: one sorted build instead of a million insertions into each (GIN above all).
 */
export async function withoutIndexes(conn: RawConnection, table: string, insert: () => Promise<void>): Promise<void> {
  const indexes = await conn.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes AS i
     WHERE schemaname = 'public' AND tablename = $1
       AND NOT EXISTS (SELECT 1 FROM pg_constraint AS c WHERE c.conname = i.indexname)`,
    [table],
  );
  for (const { name } of indexes) await conn.exec(`DROP INDEX ${name}`);
  await insert();
  for (const { definition } of indexes) await conn.exec(definition);
}
