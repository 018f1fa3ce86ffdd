/**
 * The plan PostgreSQL keeps for each feed statement (the generic plan, made without the values) must
 * read the owner's rows in the index's order and stop at the page: for an owner with thousands of
 * notifications among owners with a few, a plan that collects all of the owner's rows and sorts them
 * answers in milliseconds instead of microseconds, at every request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, insertFillerUsers, type TestUser } from '../../../test/helpers/factories.ts';
import { genericPlanRuns, keptPlan, readUnderLimit } from '../../../test/helpers/kept-plan.ts';
import { pageDirections } from '../../platform/db/page-request.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { feedPageStatements, feedPageValues } from './feed-statements.ts';

describe('plans kept for the feed statements', () => {
  let t: TestApp;
  let heavy: TestUser;
  before(async () => {
    t = await createTestApp();
    heavy = await createUser(t);
    const db = t.deps.database.db;
    // 400 owners with 10 notifications each, and one with 5,000 (half of every owner's unread): the
    // average owner has about a page of rows, where a plan that sorts an owner's rows looks as cheap.
    await insertFillerUsers(t, 400);
    await db.execute(sql`INSERT INTO notifications (id, owner_id, type, data, read_at, created_at)
      SELECT gen_random_uuid(), owner.id, 'follow.received', '{}',
             CASE WHEN i % 2 = 0 THEN now() END, now() - i * interval '1 minute'
      FROM (SELECT id FROM users WHERE id <> ${heavy.id}) AS owner, generate_series(1, 10) AS i`);
    await db.execute(sql`INSERT INTO notifications (id, owner_id, type, data, read_at, created_at)
      SELECT gen_random_uuid(), ${heavy.id}, 'follow.received', '{}',
             CASE WHEN i % 2 = 0 THEN now() END, now() - i * interval '1 minute'
      FROM generate_series(1, 5000) AS i`);
    await db.execute(sql`ANALYZE notifications`);
  });
  after(() => t.close());

  it('reads a heavy owner’s page in index order, never sorting all of their rows', async () => {
    const [middle] = await queryRows<{ createdAt: Date; id: string }>(
      t.deps.database.db,
      sql`SELECT created_at AS "createdAt", id FROM notifications WHERE owner_id = ${heavy.id}
          ORDER BY created_at DESC, id DESC OFFSET 2500 LIMIT 1`,
    );
    assert.ok(middle);
    for (const direction of pageDirections) {
      for (const filter of ['all', 'unread'] as const) {
        const page = {
          direction,
          limit: 20,
          position: direction === 'first' ? null : [new Date(middle.createdAt), middle.id],
        };
        const statement = feedPageStatements[direction][filter];
        const plan = await keptPlan(t.services.platform.transactions, statement.text, feedPageValues(heavy.id, page));
        const index = filter === 'unread' ? 'notifications_unread' : 'notifications_feed';
        assert.match(
          readUnderLimit(plan),
          new RegExp(`Index Scan (Backward )?using ${index} on notifications`),
          `${statement.name}: the page is read in index order under its LIMIT\n${plan.join('\n')}`,
        );
      }
    }
  });
  it('keeps one plan: after its first executions, light and heavy owners and any page size run it', async () => {
    const [light] = await queryRows<{ id: string }>(
      t.deps.database.db,
      sql`SELECT id FROM users WHERE id <> ${heavy.id} LIMIT 1`,
    );
    assert.ok(light);
    const { text } = feedPageStatements.first.all;
    // The third value: the owner's hide filters, none.
    const generic = await genericPlanRuns(
      t.services.platform.transactions,
      text,
      (
        [
          [heavy.id, 21],
          [light.id, 21],
          [heavy.id, 2],
          [light.id, 101],
          [heavy.id, 21],
          [heavy.id, 21],
          [light.id, 21],
          [heavy.id, 101],
        ] as const
      ).map(([owner, rows]) => [owner, rows, '{}']),
    );
    assert.ok(generic >= 3, `the generic plan ran ${generic} times of 8`);
  });
});
