/**
 * How trending's ranking (GET /api/media/trending, recomputed a minute per instance and key) reads its
 * likes: for a country with few media, from those media (media_reactions_by_media), not from every
 * like of the window on the platform. Counted first and joined after (the statement before session 44),
 * the ranking of any country read all the window's likes, a cost growing with the platform's weekly
 * likes; one join grouped by media lets PostgreSQL start from the smaller side. Fails with the likes
 * counted first.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { plannedFor } from '../../../test/helpers/kept-plan.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { watchStatements } from '../../../test/helpers/statement-counter.ts';

describe("the plan of trending's ranking", () => {
  let t: TestApp;
  const iceland: string[] = [];
  before(async () => {
    t = await createTestApp();
    const owner = await createUser(t);
    const liker = await createUser(t);
    // Three photos in Iceland, liked three, two and one times this week.
    const likers = [liker, ...(await Promise.all([createUser(t), createUser(t)]))];
    for (let i = 0; i < 3; i += 1) {
      const photo = await createMediaRow(t, owner.id, { latitude: 64.14, longitude: -21.94, countryCode: 'IS' });
      iceland.push(photo.id);
      for (const user of likers.slice(0, 3 - i)) {
        const response = await t.request({
          method: 'PUT',
          url: `/api/users/me/media/${photo.id}/reaction`,
          token: user.token,
          body: { type: 'like' },
        });
        assert.equal(response.statusCode, 200, response.body);
      }
    }
    // 20,000 photos in Brazil, each liked this week (written by SQL: the factory's one at a time would
    // take minutes): the platform's likes of the window are thousands of times Iceland's.
    await t.deps.database.db.execute(sql`
      WITH photos AS (
        INSERT INTO media (id, owner_id, kind, published, original_key, original_format, byte_size, width, height,
                           content_hash, describe_status, latitude, longitude, country_code, created_at, updated_at)
        SELECT gen_random_uuid(), ${owner.id}, 'post', true, 'originals/plans/' || i, 'jpeg', 1000, 400, 300,
               md5(i::text), 'skipped', -15 + (i % 100) * 0.01, -47 - (i / 100) * 0.01, 'BR',
               ${t.clock.now()}, ${t.clock.now()}
        FROM generate_series(0, 19999) AS i
        RETURNING id)
      INSERT INTO media_reactions (id, user_id, media_id, type, created_at)
      SELECT gen_random_uuid(), ${liker.id}, photos.id, 'like', ${t.clock.now()} FROM photos`);
    await t.deps.database.db.execute(sql`ANALYZE media`);
    await t.deps.database.db.execute(sql`ANALYZE media_reactions`);
  });
  after(() => t.close());

  it("counts a small country's likes from its own media, whatever the platform's", async () => {
    const statements = watchStatements(t.deps.database);
    const response = await t.request({ method: 'GET', url: '/api/media/trending?country=IS' });
    statements.restore();
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(
      response.json.data.map((item: { id: string; meta: { windowLikes: number } }) => [item.id, item.meta.windowLikes]),
      iceland.map((id, i) => [id, 3 - i]),
    );
    const ranking = statements.sent.find((sent) => /count\(\*\)/.test(sent.text) && /media_reactions/.test(sent.text));
    assert.ok(ranking, 'the ranking statement was sent');
    const plan = (await plannedFor(t.services.platform.transactions, ranking.text, ranking.values)).join('\n');
    assert.match(plan, /media_reactions_by_media/, plan);
    assert.doesNotMatch(plan, /media_reactions_recent|Seq Scan on media_reactions/, plan);
  });
});
