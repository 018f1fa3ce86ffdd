/**
 * Two posts whose tags swap, resynced at once, again and again (PostgreSQL, many connections): each
 * resync takes out one post's old tags and adds its new ones, one of which both posts get at once, a
 * count row neither finds. Locked by the writes themselves, one resync took its old tag's rows and
 * waited for its new one's while the other did the reverse: a deadlock, about one resync in four here,
 * and counts left wrong until the next rebuild. Locked first, missing rows made, in one order
 * (CountedPostsRepository.lockCounts), they queue: none fails, and the counts are the posts'.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { testEngine } from '../../../test/helpers/database.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { queryRows } from '../../platform/db/rows.ts';

describe('resyncs of posts whose tags swap, at once', {
  skip: testEngine() !== 'postgres' && 'one connection on PGlite',
}, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(t.deps.database.db, query);

  it('never deadlock, and leave every count as the posts are', async () => {
    const owner = await createUser(t);
    const one = await createMediaRow(t, owner.id, { hashtags: ['alpha'] });
    const two = await createMediaRow(t, owner.id, { hashtags: ['beta'] });
    const { hashtags } = t.services.areas.hashtags;
    await hashtags.resync([one.id]);
    await hashtags.resync([two.id]);
    const failures: string[] = [];
    const rounds = 40;
    for (let round = 0; round < rounds; round += 1) {
      // The posts' tags changed (as an edit writes them): their own tags swapped, and a new one for both.
      const [first, second] = round % 2 === 0 ? ['beta', 'alpha'] : ['alpha', 'beta'];
      const shared = `round${round}`;
      await t.deps.database.db.execute(
        sql`UPDATE media SET hashtags = ARRAY[${first}, ${shared}] WHERE id = ${one.id}`,
      );
      await t.deps.database.db.execute(
        sql`UPDATE media SET hashtags = ARRAY[${second}, ${shared}] WHERE id = ${two.id}`,
      );
      const results = await Promise.allSettled([hashtags.resync([one.id]), hashtags.resync([two.id])]);
      for (const result of results)
        if (result.status === 'rejected') {
          const reason = result.reason as { cause?: unknown };
          failures.push(String(reason.cause ?? reason));
        }
    }
    assert.deepEqual(failures, []);
    const last = `round${rounds - 1}`;
    assert.deepEqual(await rows<{ tag: string; uses: number }>(sql`SELECT tag, uses FROM hashtag_uses ORDER BY tag`), [
      { tag: 'alpha', uses: 1 },
      { tag: 'beta', uses: 1 },
      { tag: last, uses: 2 },
    ]);
    assert.deepEqual(
      await rows<{ tag: string; uses: number }>(
        sql`SELECT tag, sum(uses)::int AS uses FROM hashtag_daily_uses GROUP BY tag ORDER BY tag`,
      ),
      [
        { tag: 'alpha', uses: 1 },
        { tag: 'beta', uses: 1 },
        { tag: last, uses: 2 },
      ],
    );
    const related = await t.request({ method: 'GET', url: `/api/media/hashtags/related?tag=${last}` });
    assert.equal(related.statusCode, 200, related.body);
    assert.deepEqual(
      related.json.data.map((item: { id: string; attributes: { cooccurrences: number } }) => [
        item.id,
        item.attributes.cooccurrences,
      ]),
      [
        ['beta', 1],
        ['alpha', 1],
      ],
    );
  });
});
