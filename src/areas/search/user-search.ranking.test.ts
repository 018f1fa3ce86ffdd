import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { watchStatements } from '../../../test/helpers/statement-counter.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { UserSearchRepository } from './user-search.repository.ts';

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

  it('reads the fuzzy matches only when the exact, prefix and full-text matches do not fill the page', async () => {
    const watch = watchStatements(t.deps.database);
    const tiersRead = async (url: string) => {
      watch.reset();
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, res.body);
      const texts = watch.sent.map((statement) => statement.text);
      return {
        res,
        strong: texts.some((text) => text.includes('ts_rank(')),
        fuzzy: texts.some((text) => text.includes('word_similarity(')),
      };
    };
    try {
      // "jose" prefixes two usernames and is a word of a third's nickname: a page of two is filled by them.
      const filled = await tiersRead('/api/users/search?q=jose&limit=2');
      assert.deepEqual(
        { strong: filled.strong, fuzzy: filled.fuzzy },
        { strong: true, fuzzy: false },
        'the three strong matches fill a page of two and tell there is a next one',
      );
      const nextLink = new URL(filled.res.json.links.next, 'http://localhost');
      const next = await tiersRead(`${nextLink.pathname}${nextLink.search}`);
      assert.deepEqual(
        next.res.json.data.map((user: { attributes: { username: string } }) => user.attributes.username),
        ['maria_s'],
        'the next page: the last strong match, then no fuzzy one',
      );
      // A typo has no strong match: the fuzzy statement answers.
      const typo = await tiersRead('/api/users/search?q=alvares');
      assert.deepEqual(
        typo.res.json.data.map((user: { attributes: { username: string } }) => user.attributes.username),
        ['jose_alvarez'],
      );
      assert.equal(typo.fuzzy, true);
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
    for (const q of ['jose', 'a_b', 'alvares', 'a', 'ab', 'é', 'a%', '_a', 'x\\']) {
      for (const tier of ['strong', 'fuzzy'] as const) {
        const statement = repository.searchQuery(await repository.normalize(q), page, null, tier).toSQL();
        // Parameters inlined as literals: EXPLAIN of a parameterized statement needs them bound.
        const inlined = statement.sql.replace(/\$(\d+)/g, (_, n) => literal(statement.params[Number(n) - 1]));
        const plan = await t.services.platform.transactions.run(async () => {
          const db = t.services.platform.transactions.db;
          await db.execute(sql`SET LOCAL enable_seqscan = off`);
          const rows = await queryRows<{ 'QUERY PLAN': string }>(db, sql.raw(`EXPLAIN ${inlined}`));
          return rows.map((row) => row['QUERY PLAN']).join('\n');
        });
        assert.doesNotMatch(plan, /Seq Scan/, `${q} (${tier}):\n${plan}`);
        assert.match(plan, /BitmapOr/, `${q} (${tier}):\n${plan}`);
        assert.doesNotMatch(plan, /search_documents_pkey/, `${q} (${tier}): not every user document:\n${plan}`);
        // The fuzzy tier's query is a value the planner cannot weigh (user-search.repository.ts), so on
        // these 5,000 users it may hash the users rather than probe them; the strong tier probes them.
        if (tier === 'strong')
          assert.match(
            plan,
            /Index Cond: \(id = search_documents\.source_id\)/,
            `${q} (${tier}): users joined by key:\n${plan}`,
          );
      }
    }
  });
});

const literal = (value: unknown) =>
  value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
