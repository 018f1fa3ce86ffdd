/**
 * Two posts whose tags swap, resynced at once, again and again (PostgreSQL, many connections): each
 * resync takes out one post's old tags and adds its new ones, one of which both posts get at once, a
 * count row neither finds. Locked by the writes themselves, one resync took its old tag's rows and
 * waited for its new one's while the other did the reverse: a deadlock, about one resync in four here,
 * and counts left wrong until the next rebuild. Locked first, missing rows made, in one order
 * (CountedPostsRepository.lockCounts), they queue: none fails, and the counts are the posts'.
 * A rebuild beside edits and their resyncs deadlocked with them (it writes count rows in no fixed
 * order) and, reading media a statement at a time, counted an edit in some tables and not others;
 * it now locks the ledger and reads one snapshot (HashtagsRepository.beginRebuild), and a resync waits
 * for it at most a bound (CountedPostsRepository.boundLockWaits).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { onPostgresOnly } from '../../../test/helpers/database.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { databaseError } from '../../platform/db/errors.ts';
import { queryRows } from '../../platform/db/rows.ts';

describe('hashtag resyncs beside one another and beside a rebuild', onPostgresOnly, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(t.deps.database.db, query);
  /** The database's refusals among the results (a deadlock, say), as text. */
  const failuresOf = (results: PromiseSettledResult<unknown>[]) =>
    results.flatMap((result) =>
      result.status === 'rejected' ? [String((result.reason as { cause?: unknown }).cause ?? result.reason)] : [],
    );

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
      failures.push(...failuresOf(await Promise.allSettled([hashtags.resync([one.id]), hashtags.resync([two.id])])));
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

  it('beside a rebuild, never deadlock, and leave counts as the posts are, with nothing for the next rebuild to repair', async () => {
    const owner = await createUser(t);
    const posts = await Promise.all(
      ['gamma', 'delta', 'epsilon', 'zeta'].map((tag) => createMediaRow(t, owner.id, { hashtags: [tag] })),
    );
    const { hashtags } = t.services.areas.hashtags;
    await hashtags.rebuild();
    const failures: string[] = [];
    for (let round = 0; round < 50; round += 1) {
      // Each post edited as the service does it (the row committed, then its resync) while a rebuild runs:
      // its tag moves to the next post's, and a tag of the round joins it.
      const edits = posts.map(async (post, index) => {
        const next = ['gamma', 'delta', 'epsilon', 'zeta'][(index + round + 1) % 4] as string;
        await t.deps.database.db.execute(
          sql`UPDATE media SET hashtags = ARRAY[${next}, ${`r${round}`}] WHERE id = ${post.id}`,
        );
        await hashtags.resync([post.id]);
      });
      failures.push(...failuresOf(await Promise.allSettled([hashtags.rebuild(), ...edits])));
    }
    assert.deepEqual(failures, []);
    // Each post holds one of the four tags and the last round's: what autocomplete and related tags show.
    assert.deepEqual(
      await rows<{ tag: string; uses: number }>(
        sql`SELECT tag, uses FROM hashtag_uses
            WHERE tag IN ('gamma', 'delta', 'epsilon', 'zeta') OR tag ~ '^r[0-9]+$' ORDER BY tag`,
      ),
      [
        { tag: 'delta', uses: 1 },
        { tag: 'epsilon', uses: 1 },
        { tag: 'gamma', uses: 1 },
        { tag: 'r49', uses: 4 },
        { tag: 'zeta', uses: 1 },
      ],
    );
    const related = await t.request({ method: 'GET', url: '/api/media/hashtags/related?tag=r49' });
    assert.equal(related.statusCode, 200, related.body);
    assert.deepEqual(
      related.json.data
        .map((item: { id: string; attributes: { cooccurrences: number } }) => [item.id, item.attributes.cooccurrences])
        .sort(),
      [
        ['delta', 1],
        ['epsilon', 1],
        ['gamma', 1],
        ['zeta', 1],
      ],
    );
    const untouched = { removed: 0, written: 0 };
    assert.deepEqual(await hashtags.rebuild(), {
      dailyUses: untouched,
      totals: untouched,
      pairs: untouched,
      countedMedia: untouched,
    });
  });

  it('retry a resync that gave up on the lock once the rebuild is over (the job after-commit-retries)', {
    timeout: 60_000,
  }, async () => {
    const owner = await createUser(t);
    const post = await createMediaRow(t, owner.id, { hashtags: ['iota'] });
    await t.services.areas.hashtags.hashtags.resync([post.id]);
    const uses = () =>
      rows<{ tag: string; uses: number }>(
        sql`SELECT tag, uses FROM hashtag_uses WHERE tag IN ('iota', 'kappa') ORDER BY tag`,
      );
    await t.deps.database.db.transaction(async (rebuilding) => {
      await rebuilding.execute(sql`LOCK TABLE hashtag_counted_media IN EXCLUSIVE MODE`);
      const edited = await t.request({
        method: 'PUT',
        url: `/api/users/me/media/${post.id}/description`,
        token: owner.token,
        body: { description: 'The harbour at dawn #kappa' },
      });
      assert.equal(edited.statusCode, 200, edited.body);
    });
    assert.deepEqual(await uses(), [{ tag: 'iota', uses: 1 }], 'the resync gave up on the lock');
    const { report } = (await t.services.platform.jobs.run('after-commit-retries')) as { report: unknown };
    assert.deepEqual(report, { retried: 1, succeeded: 1, failedAgain: 0, givenUp: 0, waiting: 0 });
    assert.deepEqual(await uses(), [{ tag: 'kappa', uses: 1 }], 'the retry counted the edit');
  });

  // Unbounded, the resync would wait for this test's lock forever: the timeout turns that into a failure.
  it('wait for a rebuild at most a bound, then leave the post to the next rebuild', { timeout: 60_000 }, async () => {
    const owner = await createUser(t);
    const post = await createMediaRow(t, owner.id, { hashtags: ['eta'] });
    const { hashtags } = t.services.areas.hashtags;
    await hashtags.resync([post.id]);
    await t.deps.database.db.execute(sql`UPDATE media SET hashtags = ARRAY['theta'] WHERE id = ${post.id}`);
    // A rebuild in progress holds the ledger (beginRebuild), longer than a resync waits.
    await t.deps.database.db.transaction(async (rebuilding) => {
      await rebuilding.execute(sql`LOCK TABLE hashtag_counted_media IN EXCLUSIVE MODE`);
      await assert.rejects(hashtags.resync([post.id]), (error) => {
        assert.equal(databaseError(error)?.code, '55P03', String(error));
        return true;
      });
    });
    const uses = () =>
      rows<{ tag: string; uses: number }>(
        sql`SELECT tag, uses FROM hashtag_uses WHERE tag IN ('eta', 'theta') ORDER BY tag`,
      );
    assert.deepEqual(await uses(), [{ tag: 'eta', uses: 1 }]);
    await hashtags.rebuild();
    assert.deepEqual(await uses(), [{ tag: 'theta', uses: 1 }]);
  });
});
