/**
 * The plans PostgreSQL keeps for the follow lists read anonymously (and the `/me` lists, the same
 * statements): whoever's list it is (a user following hundreds among users following a few), a page
 * is read in the follows index's order and stops at the page, and the statement is planned once per
 * connection, not at every request (the listed user's id is hidden from the plans:
 * platform/db/literals.ts `unseenByPlans`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, insertFillerUsers, type TestUser } from '../../../test/helpers/factories.ts';
import { genericPlanRuns, keptPlan } from '../../../test/helpers/kept-plan.ts';
import { type SentStatement, watchStatements } from '../../../test/helpers/statement-counter.ts';
import { queryRows } from '../../platform/db/rows.ts';

describe('plans kept for the follow lists', () => {
  let t: TestApp;
  let heavy: TestUser;
  let light: string;
  before(async () => {
    t = await createTestApp();
    heavy = await createUser(t);
    const db = t.deps.database.db;
    // 2,000 users who each follow the next 100 and the heavy user; the heavy user follows 1,000 of them.
    await insertFillerUsers(t, 2000);
    await db.execute(sql`WITH filler AS (
        SELECT id, row_number() OVER (ORDER BY id) AS place FROM users WHERE id <> ${heavy.id}
      )
      INSERT INTO follows (follower_id, followee_id, created_at)
      SELECT a.id, b.id, now() - (a.place * 100 + step) * interval '1 minute'
      FROM filler AS a, generate_series(1, 100) AS step, filler AS b WHERE b.place = (a.place + step - 1) % 2000 + 1
      UNION ALL SELECT ${heavy.id}::uuid, id, now() - place * interval '1 second' FROM filler WHERE place <= 1000
      UNION ALL SELECT id, ${heavy.id}::uuid, now() - place * interval '1 second' FROM filler`);
    await db.execute(sql`ANALYZE follows`);
    await db.execute(sql`ANALYZE users`);
    const [someone] = await queryRows<{ id: string }>(
      db,
      sql`SELECT follower_id AS id FROM follows WHERE follower_id <> ${heavy.id} LIMIT 1`,
    );
    light = someone!.id;
  });
  after(() => t.close());

  /** The list statement a request sent (the page of the follows joined with their users). */
  async function listStatement(url: string, token?: string): Promise<SentStatement> {
    const statements = watchStatements(t.deps.database);
    const page = await t.request({ method: 'GET', url, ...(token ? { token } : {}) });
    statements.restore();
    assert.equal(page.statusCode, 200, url);
    assert.equal(page.json.data.length, 20, url);
    const list = statements.sent.find((sent) => /from "follows"/i.test(sent.text));
    assert.ok(list, `${url}: the list statement was sent`);
    return list;
  }

  const lists = [
    { side: 'following', index: 'follows_by_follower' },
    { side: 'followers', index: 'follows_by_followee' },
  ] as const;

  it("reads a heavy user's page in the index's order, never sorting all of their follows", async () => {
    for (const { side, index } of lists) {
      for (const list of [
        await listStatement(`/api/users/${heavy.id}/${side}`),
        await listStatement(`/api/users/me/${side}`, heavy.token),
      ]) {
        const plan = await keptPlan(t.services.platform.transactions, list.text, list.values);
        const shown = plan.join('\n');
        assert.match(shown, new RegExp(`Index (Only )?Scan using ${index} on follows`), shown);
        assert.doesNotMatch(shown, /Sort/, `${side}: no sort of the user's follows\n${shown}`);
      }
    }
  });

  it('keeps one plan: after its first executions, heavy and light users run it', async () => {
    for (const { side } of lists) {
      const list = await listStatement(`/api/users/${heavy.id}/${side}`);
      const userAt = list.values.indexOf(heavy.id);
      assert.ok(userAt >= 0, 'the listed user is a value of the statement');
      const generic = await genericPlanRuns(
        t.services.platform.transactions,
        list.text,
        [heavy.id, heavy.id, heavy.id, heavy.id, heavy.id, light, heavy.id, heavy.id].map((user) =>
          list.values.map((value, at) => (at === userAt ? user : value)),
        ),
      );
      assert.ok(generic >= 3, `${side}: the generic plan ran ${generic} times of 8`);
    }
  });
});
