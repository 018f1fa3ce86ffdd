import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fillPlaceholders, sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { watchStatements } from '../../../test/helpers/statement-counter.ts';
import { isPostgres } from '../../platform/db/postgres-database.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { armLimit, UserSearchRepository, valuesOf } from './user-search.repository.ts';

describe('GET /api/users/search: ranking, accents, typos, metacharacters', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await createUser(t, { username: 'jose_alvarez', nickname: 'José Álvarez' });
    await createUser(t, { username: 'joselito', nickname: 'Joselito' });
    await createUser(t, { username: 'maria_s', nickname: 'María José Sánchez' });
    await createUser(t, { username: 'zoe', nickname: 'Zoë' });
    await createUser(t, { username: 'a_b_c', nickname: 'Plain' });
    await createUser(t, { username: 'axbxc', nickname: 'Other' });
    await createUser(t, { username: 'back_slash', nickname: 'Slash \\ Mark' });
  });
  after(() => t.close());

  const usernames = async (q: string) => {
    const res = await t.request({ method: 'GET', url: `/api/users/search?q=${encodeURIComponent(q)}` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data.map((user: { attributes: { username: string } }) => user.attributes.username);
  };

  it('ranks username prefixes before a word of a nickname, whatever the accents and case', async () => {
    for (const q of ['jose', 'JOSÉ', 'José']) {
      const found = await usernames(q);
      assert.deepEqual(found.slice(0, 2).sort(), ['jose_alvarez', 'joselito'], q);
      assert.equal(found[2], 'maria_s', `${q}: a nickname word comes after the name prefixes`);
      assert.equal(found.length, 3, q);
    }
  });

  it('ranks an exact username or nickname first', async () => {
    assert.deepEqual(await usernames('zoe'), ['zoe']);
    assert.equal((await usernames('ZOË'))[0], 'zoe');
    assert.equal((await usernames('joselito'))[0], 'joselito');
  });

  it('finds names with accents from unaccented queries and the reverse', async () => {
    assert.deepEqual(await usernames('alvarez'), ['jose_alvarez']);
    assert.deepEqual(await usernames('ÁLVAREZ'), ['jose_alvarez']);
    assert.deepEqual(await usernames('sanchez'), ['maria_s']);
    assert.deepEqual(await usernames('Sánchez'), ['maria_s']);
  });

  it('tolerates typos', async () => {
    assert.deepEqual(await usernames('alvares'), ['jose_alvarez']);
    assert.deepEqual(await usernames('sanches'), ['maria_s']);
    assert.ok((await usernames('joselitto')).includes('joselito'));
  });

  it('treats %, _ and \\ as plain characters', async () => {
    assert.deepEqual(await usernames('%'), []);
    assert.deepEqual(await usernames('_'), []);
    assert.deepEqual(await usernames('\\'), []);
    assert.deepEqual(await usernames('a_b'), ['a_b_c'], 'the underscore is not a wildcard: axbxc stays out');
    assert.ok(!(await usernames('a%c')).includes('axbxc'), 'the percent sign is not a wildcard');
    assert.deepEqual(await usernames("'; drop table users; --"), []);
  });

  it('treats the full-width ％ ＿ ＼, which unaccent folds into % _ \\, as plain characters too', async () => {
    assert.ok(!(await usernames('a＿b')).includes('axbxc'), 'a full-width underscore is not a wildcard');
    assert.ok(!(await usernames('a％c')).includes('axbxc'), 'a full-width percent sign is not a wildcard');
  });

  it('refuses an empty or over-long q with its parameter', async () => {
    for (const query of ['q=', `q=${'x'.repeat(10_000)}`]) {
      const res = await t.request({ method: 'GET', url: `/api/users/search?${query}` });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json.errors[0].source.parameter, 'q');
    }
  });

  /** The tiers a search's statements read (user-search.repository.ts), by what only each tier's text holds. */
  const tiersOf = (texts: string[]) => ({
    prefixes: texts.some((text) => text.includes('USING ~<~')),
    words: texts.some((text) => text.includes('ts_rank(')),
    fuzzy: texts.some((text) => text.includes('word_similarity(')),
  });

  it('reads a tier only when the tiers above it do not fill the page', async () => {
    const watch = watchStatements(t.deps.database);
    const tiersRead = async (url: string) => {
      watch.reset();
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, res.body);
      return { res, tiers: tiersOf(watch.sent.map((statement) => statement.text)) };
    };
    const names = (res: { json: { data: Array<{ attributes: { username: string } }> } }) =>
      res.json.data.map((user) => user.attributes.username);
    try {
      // "jose" prefixes two usernames and is a word of a third's nickname.
      const one = await tiersRead('/api/users/search?q=jose&limit=1');
      assert.deepEqual(one.tiers, { prefixes: true, words: false, fuzzy: false }, 'two prefixes fill a page of one');
      const filled = await tiersRead('/api/users/search?q=jose&limit=2');
      assert.deepEqual(
        filled.tiers,
        { prefixes: true, words: true, fuzzy: false },
        'the two prefixes and the nickname word fill a page of two and tell there is a next one',
      );
      const nextLink = new URL(filled.res.json.links.next, 'http://localhost');
      const next = await tiersRead(`${nextLink.pathname}${nextLink.search}`);
      assert.deepEqual(names(next.res), ['maria_s'], 'the next page: the nickname word, then no fuzzy match');
      // A typo has no prefix and no word: the fuzzy statement answers.
      const typo = await tiersRead('/api/users/search?q=alvares');
      assert.deepEqual(names(typo.res), ['jose_alvarez']);
      assert.deepEqual(typo.tiers, { prefixes: true, words: true, fuzzy: true });
      // Each tier's statement is sent unnamed, so PostgreSQL plans it for its values (a LIKE pattern is
      // a range of the btree only when known); the normalization, one plan for every query, is named.
      const tierStatements = watch.sent.filter((statement) => Object.values(tiersOf([statement.text])).includes(true));
      assert.equal(tierStatements.length, 3);
      assert.deepEqual(
        tierStatements.map((statement) => statement.name || null),
        [null, null, null],
      );
      const normalization = watch.sent.find((statement) => statement.text.includes('lower(unaccent('));
      assert.ok(normalization, 'the normalization was sent');
      // PGlite's driver names no statement; pg sends the name.
      const named = isPostgres(t.deps.database) ? 'search.users.normalize' : undefined;
      assert.equal(normalization.name, named);
    } finally {
      watch.restore();
    }
  });

  it('looks for typos only in a query with a word of three letters or digits', async () => {
    const watch = watchStatements(t.deps.database);
    try {
      for (const [q, expected] of [
        ['zz', []],
        ['z', ['zoe']],
        ['jo', ['jose_alvarez', 'joselito', 'maria_s']],
        ['x y', []],
      ] as const) {
        watch.reset();
        const res = await t.request({ method: 'GET', url: `/api/users/search?q=${encodeURIComponent(q)}` });
        assert.equal(res.statusCode, 200, res.body);
        const found = res.json.data.map((user: { attributes: { username: string } }) => user.attributes.username);
        assert.deepEqual(found.slice(0, 2).sort().concat(found.slice(2)), expected, q);
        assert.equal(tiersOf(watch.sent.map((statement) => statement.text)).fuzzy, false, `${q}: no fuzzy statement`);
      }
      // Three letters are enough: "zoi" is a typo of "zoe".
      watch.reset();
      const typo = await t.request({ method: 'GET', url: '/api/users/search?q=zoi' });
      assert.deepEqual(
        typo.json.data.map((user: { attributes: { username: string } }) => user.attributes.username),
        ['zoe'],
      );
      assert.equal(tiersOf(watch.sent.map((statement) => statement.text)).fuzzy, true);
    } finally {
      watch.restore();
    }
  });

  it('reads the index through its indexes, never by scanning the table', async () => {
    // Users enough for the planner to weigh its indexes as in production, indexed by a rebuild.
    await t.deps.database.db.execute(sql`INSERT INTO users (id, email, username, sponsor_code, settings, created_at, updated_at)
      SELECT gen_random_uuid(), n || '@example.test', 'u' || n, upper(n), '{}', now(), now()
      FROM (SELECT md5(i::text) AS n FROM generate_series(1, 5000) AS i) AS filler`);
    const rebuild = await t.request({ method: 'POST', url: '/admin/users/reindex-all', token: adminToken });
    assert.equal(rebuild.json.data.attributes.indexed, 5007);
    await t.deps.database.db.execute(sql`ANALYZE search_documents`);
    await t.deps.database.db.execute(sql`ANALYZE users`);

    const repository = new UserSearchRepository(t.services.platform.transactions);
    const page = { direction: 'first' as const, position: null, limit: 20, list: 'user-search' };
    const planOf = async (q: string, tier: 'prefixes' | 'words' | 'fuzzy') => {
      const normal = await repository.normalize(q);
      const shape = { tier, direction: page.direction, signedIn: false, typoWords: normal.typoWords.length };
      const statement = repository.tierStatement(t.deps.database.db, shape).toSQL();
      const values = fillPlaceholders(statement.params, valuesOf(normal, page, null));
      // Parameters inlined as literals: EXPLAIN of a parameterized statement needs them bound, and the
      // service's statement is unnamed, so planned for its values as these are.
      const inlined = statement.sql.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]));
      return t.services.platform.transactions.run(async () => {
        const db = t.services.platform.transactions.db;
        await db.execute(sql`SET LOCAL enable_seqscan = off`);
        const rows = await queryRows<{ 'QUERY PLAN': string }>(db, sql.raw(`EXPLAIN ${inlined}`));
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    };
    // "u" prefixes the 5,000 names: each prefix arm reads its btree in order and stops at its limit.
    for (const q of ['u', 'jose', 'a_b', 'alvares', 'a', 'ab', 'é', 'a%', '_a', 'x\\']) {
      const prefixes = await planOf(q, 'prefixes');
      assert.doesNotMatch(prefixes, /Seq Scan/, `${q} (prefixes):\n${prefixes}`);
      for (const index of ['search_users_name_prefix', 'search_users_label_prefix'])
        assert.match(
          prefixes,
          new RegExp(`(Index Scan using|Index Only Scan using|Bitmap Index Scan on) ${index}`),
          `${q} (prefixes): ${index}:\n${prefixes}`,
        );
      // Thousands of matches: the names in the btree's order, ties by id, read until the arm's limit, none sorted.
      // Every name also starts with a word "u…": the other tiers would read them all, as they must (their header).
      if (q === 'u') {
        assert.match(prefixes, /Limit[\s\S]*Index (Only )?Scan using search_users_name_prefix/, prefixes);
        assert.doesNotMatch(prefixes, /Sort Key: arm(_\d)?\.(name|label)/, prefixes);
        continue;
      }
      const words = await planOf(q, 'words');
      assert.doesNotMatch(words, /Seq Scan/, `${q} (words):\n${words}`);
      assert.match(words, /Bitmap Index Scan on search_users_document/, `${q} (words):\n${words}`);
      // The typo tier reads the words nearest the query's, a step of their btree each (a query without a
      // word of three characters or more has no typo tier).
      if (['jose', 'alvares'].includes(q)) {
        const fuzzy = await planOf(q, 'fuzzy');
        assert.doesNotMatch(fuzzy, /Seq Scan/, `${q} (fuzzy):\n${fuzzy}`);
        assert.match(fuzzy, /Index Only Scan (Backward )?using search_user_words_pkey/, `${q} (fuzzy):\n${fuzzy}`);
        assert.match(
          fuzzy,
          /Index Cond: \(\(kind = 'user'::text\) AND \(source_id = /,
          `${q} (fuzzy): by key:\n${fuzzy}`,
        );
      }
      // On these 5,000 users the planner may hash the users rather than probe them where it guesses the
      // count of the candidates (the prefix arms' union); the words tier probes them.
      assert.match(words, /users_pkey on users[^\n]*\n\s+Index Cond: \(id = /, `${q} (words): users by key:\n${words}`);
    }
  });

  /** Every username found by paging through a search, 50 a page. */
  const allPagesOf = async (q: string) => {
    const found: string[] = [];
    let url: string | null = `/api/users/search?q=${q}&limit=50`;
    while (url !== null) {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, res.body);
      found.push(...res.json.data.map((user: { attributes: { username: string } }) => user.attributes.username));
      const next: string | null | undefined = res.json.links.next;
      const link = next ? new URL(next, 'http://localhost') : null;
      url = link ? `${link.pathname}${link.search}` : null;
    }
    assert.equal(new Set(found).size, found.length, `${q}: no user twice across the pages`);
    return found;
  };

  it('ranks at most the first 200 names of a prefix, in code-point order, the same on every page', async () => {
    // The 5,000 usernames "u" and 32 hex digits of the test above.
    const firstNames = (
      await queryRows<{ name: string }>(
        t.deps.database.db,
        sql`SELECT name FROM search_documents WHERE kind = 'user' AND name LIKE 'u%' ORDER BY name COLLATE "C" LIMIT ${armLimit}`,
      )
    ).map((row) => row.name);
    assert.equal(firstNames.length, armLimit);
    assert.deepEqual((await allPagesOf('u')).toSorted(), firstNames.toSorted());
  });

  it('finds a typo made after the first letters among thousands of names that share them', async () => {
    // A "u" name of the test above with its last hex digit changed: no name starts so, its neighbours do.
    const [row] = await queryRows<{ name: string }>(
      t.deps.database.db,
      sql`SELECT name FROM search_documents WHERE kind = 'user' AND name LIKE 'u%' ORDER BY name COLLATE "C" OFFSET 2500 LIMIT 1`,
    );
    const name = row?.name ?? assert.fail('the names of the test above');
    const typo = `${name.slice(0, -1)}${name.endsWith('0') ? '1' : '0'}`;
    const found = await usernames(typo);
    assert.ok(found.includes(name), `${typo} finds ${name}: ${found.join(', ')}`);
  });

  it('ranks at most 200 matches of the words, the same on every page', async () => {
    // 300 nicknames whose second word starts with "zed": no name and no nickname starts so.
    await t.deps.database.db.execute(sql`INSERT INTO users (id, email, username, nickname, sponsor_code, settings, created_at, updated_at)
      SELECT gen_random_uuid(), 'w' || n || '@example.test', 'w' || n, 'Anne Zed' || n, 'W' || upper(n), '{}', now(), now()
      FROM (SELECT md5('w' || i) AS n FROM generate_series(1, 300) AS i) AS filler`);
    const rebuild = await t.request({ method: 'POST', url: '/admin/users/reindex-all', token: adminToken });
    assert.equal(rebuild.statusCode, 200, rebuild.body);
    const found = await allPagesOf('zed');
    assert.equal(found.length, armLimit);
    assert.ok(
      found.every((username) => username.startsWith('w')),
      'only the nicknames with the word',
    );
  });

  it('finds the typo of a word that others extend, far from it in code-point order', async () => {
    // "kirra" and twelve words between it and "kirrx", a typo of its last letter: its neighbours are those.
    await createUser(t, { username: 'kirra', nickname: 'Kirra' });
    for (const username of ['kirrabelle', 'kirrachi', 'kirrad', 'kirrah', 'kirram', 'kirran', 'kirrana'].concat([
      'kirranne',
      'kirrano',
      'kirre',
      'kirrina',
      'kirrisol',
    ]))
      await createUser(t, { username, nickname: username });
    assert.ok((await usernames('kirrx')).includes('kirra'));
  });
});

const literal = (value: unknown) =>
  value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
