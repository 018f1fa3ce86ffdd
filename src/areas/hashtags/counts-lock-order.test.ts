/**
 * Two posts whose tags swap, resynced at once, again and again (PostgreSQL, many connections): each
 * resync takes out one post's old tag and adds its new one. Locked by the writes themselves, one took
 * its old tag's rows and waited for its new one's while the other did the reverse: a deadlock, about
 * one resync in four here, and counts left wrong until the next rebuild. Locked first in one order
 * (CountedPostsRepository.lockCounts), they queue: none fails, and the counts are the posts'.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { testEngine } from '../../../test/helpers/database.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

describe('resyncs of posts whose tags swap, at once', {
  skip: testEngine() !== 'postgres' && 'one connection on PGlite',
}, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const usesOf = async (tag: string) => {
    const response = await t.request({ method: 'GET', url: `/api/media/hashtags/autocomplete?q=${tag}` });
    assert.equal(response.statusCode, 200, response.body);
    const found = response.json.data.find((item: { id: string }) => item.id === tag);
    return found?.attributes.uses ?? 0;
  };

  it('never deadlock, and leave each tag counted once', async () => {
    const owner = await createUser(t);
    const one = await createMediaRow(t, owner.id, { hashtags: ['alpha'] });
    const two = await createMediaRow(t, owner.id, { hashtags: ['beta'] });
    const { hashtags } = t.services.areas.hashtags;
    await hashtags.resync([one.id]);
    await hashtags.resync([two.id]);
    const failures: string[] = [];
    for (let round = 0; round < 40; round += 1) {
      // The posts' tags changed (as an edit writes them), then both posts resynced at once.
      const [first, second] = round % 2 === 0 ? ['beta', 'alpha'] : ['alpha', 'beta'];
      await t.deps.database.db.execute(sql`UPDATE media SET hashtags = ARRAY[${first}] WHERE id = ${one.id}`);
      await t.deps.database.db.execute(sql`UPDATE media SET hashtags = ARRAY[${second}] WHERE id = ${two.id}`);
      const results = await Promise.allSettled([hashtags.resync([one.id]), hashtags.resync([two.id])]);
      for (const result of results)
        if (result.status === 'rejected') {
          const reason = result.reason as { cause?: unknown };
          failures.push(String(reason.cause ?? reason));
        }
    }
    assert.deepEqual(failures, []);
    assert.equal(await usesOf('alpha'), 1);
    assert.equal(await usesOf('beta'), 1);
  });
});
