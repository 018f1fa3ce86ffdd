/**
 * The plan PostgreSQL keeps for a media's comments (the generic plan, made without the values) must
 * read that media's top-level comments in the index's order and stop at the page, however many
 * comments the media has.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { keptPlan } from '../../../test/helpers/kept-plan.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { watchStatements } from '../../../test/helpers/statement-counter.ts';

describe('plan kept for a media’s comments', () => {
  let t: TestApp;
  let author: TestUser;
  let popular: string;
  before(async () => {
    t = await createTestApp();
    const owner = await createUser(t);
    author = await createUser(t);
    popular = (await createMediaRow(t, owner.id)).id;
    const quiet = [];
    for (let i = 0; i < 100; i += 1) quiet.push((await createMediaRow(t, owner.id)).id);
    const db = t.deps.database.db;
    // 3,000 top-level comments on one media, 5 on each of 100 others.
    await db.execute(sql`INSERT INTO comments (id, media_id, author_id, depth, body, created_at)
      SELECT gen_random_uuid(), ${popular}, ${author.id}, 0, 'comment ' || n, now() + n * interval '1 second'
      FROM generate_series(1, 3000) AS n`);
    await db.execute(sql`INSERT INTO comments (id, media_id, author_id, depth, body, created_at)
      SELECT gen_random_uuid(), quiet.id::uuid, ${author.id}, 0, 'comment ' || n, now() + n * interval '1 second'
      FROM unnest(${`{${quiet.join(',')}}`}::text[]) AS quiet(id), generate_series(1, 5) AS n`);
    await db.execute(sql`ANALYZE comments`);
  });
  after(() => t.close());

  it('reads the page of a media with thousands of comments in index order', async () => {
    const statements = watchStatements(t.deps.database);
    const page = await t.request({ method: 'GET', url: `/api/media/${popular}/comments` });
    statements.restore();
    assert.equal(page.statusCode, 200);
    assert.equal(page.json.data.length, 20);
    const list = statements.sent.find((sent) => /from "comments"/i.test(sent.text));
    assert.ok(list, 'the list statement was sent');
    const plan = await keptPlan(t.services.platform.transactions, list.text, list.values);
    const shown = plan.join('\n');
    // Top-level comments are depth 0, written in the statement: the partial index names that predicate.
    assert.match(shown, /Index Scan using comments_top_level on comments/, shown);
    assert.doesNotMatch(shown, /Sort/, `no sort of the media's comments:\n${shown}`);
  });
});
