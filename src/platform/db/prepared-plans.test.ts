import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { postgresUrlOf } from '../../../test/helpers/database.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { openPostgres, type PostgresDatabase } from './postgres-database.ts';

/**
 * A prepared list is planned once per connection: PostgreSQL switches to its generic plan after five
 * executions unless that plan looks costlier than one made for the values (then it plans again at
 * every execution). Read on one connection from pg_prepared_statements (PostgreSQL only).
 */
describe('prepared lists on PostgreSQL', { skip: process.env.DATABASE_URL ? false : 'PostgreSQL only' }, () => {
  let t: TestApp;
  let single: PostgresDatabase;
  let oneConnection: TestApp;
  let fan: TestUser;
  let ownerId: string;

  before(async () => {
    t = await createTestApp();
    const owner = await createUser(t);
    ownerId = owner.id;
    fan = await createUser(t);
    // At this scale (as in bench/hot-paths.bench.ts) PostgreSQL's choice shows; with a few rows any plan is cheap.
    await t.deps.database.db.execute(sql`
      INSERT INTO media (id, owner_id, kind, original_key, original_format, byte_size, width, height, content_hash,
                         describe_status, created_at, updated_at)
      SELECT gen_random_uuid(), ${owner.id}, 'post', 'originals/plans/' || i, 'jpeg', 1000, 40, 30, md5(i::text),
             'skipped', timestamptz '2026-01-01' + i * interval '1 minute', timestamptz '2026-01-01'
      FROM generate_series(1, 5000) AS i`);
    await t.deps.database.db.execute(sql`
      INSERT INTO media_reactions (id, user_id, media_id, type, created_at)
      SELECT gen_random_uuid(), ${fan.id}, id, 'like', created_at FROM media WHERE owner_id = ${owner.id} LIMIT 1000`);
    await t.deps.database.db.execute(sql`
      INSERT INTO bookmarks (id, user_id, media_id, created_at, updated_at)
      SELECT gen_random_uuid(), ${fan.id}, id, created_at, created_at FROM media WHERE owner_id = ${owner.id} LIMIT 1000`);
    await t.deps.database.db.execute('ANALYZE');
    single = openPostgres(await postgresUrlOf(t.deps.database), 1);
    oneConnection = await createTestApp({ database: single });
  });
  after(async () => {
    await oneConnection?.close();
    await single?.close();
    await t?.close();
  });

  for (const list of ['me/likes', 'me/bookmarks', '{userId}/media']) {
    it(`keep one plan for /api/users/${list}, pages of the default size`, async () => {
      const url = `/api/users/${list.replace('{userId}', ownerId)}`;
      for (let i = 0; i < 12; i++) {
        const res = await oneConnection.request({ method: 'GET', url, token: fan.token });
        assert.equal(res.statusCode, 200);
      }
      const { rows } = await single.pool.query<{ name: string; generic_plans: string; custom_plans: string }>(
        `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE $1`,
        [`%.first.defaultSize`],
      );
      const used = rows.filter((row) => Number(row.generic_plans) + Number(row.custom_plans) >= 12);
      assert.ok(used.length > 0, `no prepared statement ran 12 times: ${JSON.stringify(rows)}`);
      for (const row of used) {
        assert.ok(
          Number(row.custom_plans) <= 5,
          `${row.name}: ${row.custom_plans} custom plans, ${row.generic_plans} generic`,
        );
      }
    });
  }
});
