/**
 * The plan PostgreSQL keeps for the media nearest a centre (GET /api/media/nearby): read from the
 * media_earth_position GiST index (on a table this small, the box's few matches sorted; from about a
 * hundred thousand media, the index read in distance order: the benchmark's plans), and planned once
 * per connection, not at every request. The centre and the distance are hidden from the plans
 * (geo-sql.ts aroundCentre): seen, the plan made for them looked cheaper than the kept one, and
 * PostgreSQL planned the statement again at every execution (from 20,000 media here; at both of the
 * benchmark's sizes: docs/benchmarks.md, session 43). Fails with the values seen.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { genericPlanRuns, keptPlan } from '../../../test/helpers/kept-plan.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { type SentStatement, watchStatements } from '../../../test/helpers/statement-counter.ts';
import { earthPointOf } from '../../platform/db/earth-point.ts';

describe('the plan kept for the media nearest a centre', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    const owner = await createUser(t);
    // 30 photos in the streets of Lyon, and 20,000 over the world (written by SQL: the factory's one
    // at a time would take minutes), enough for the plan made for a centre to look cheaper than the kept one.
    for (let i = 0; i < 30; i += 1)
      await createMediaRow(t, owner.id, { latitude: 45.764 + i * 0.0005, longitude: 4.8357 + i * 0.0005 });
    await t.deps.database.db.execute(sql`
      INSERT INTO media (id, owner_id, kind, original_key, original_format, byte_size, width, height, content_hash,
                         describe_status, latitude, longitude, created_at, updated_at)
      SELECT gen_random_uuid(), ${owner.id}, 'post', 'originals/plans/' || i, 'jpeg', 1000, 400, 300, md5(i::text), 'skipped',
             -60 + (i % 120), -170 + (i / 120) * 2, now(), now()
      FROM generate_series(0, 19999) AS i`);
    await t.deps.database.db.execute(sql`ANALYZE media`);
  });
  after(() => t.close());

  const metres = 5000;
  /** The statement reading the first page of media within 5 km of Lyon's centre. */
  async function nearbyStatement(): Promise<SentStatement> {
    const statements = watchStatements(t.deps.database);
    const res = await t.request({ method: 'GET', url: `/api/media/nearby?lat=45.764&lng=4.8357&distance=${metres}` });
    statements.restore();
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json.data.length, 20, res.body);
    const read = statements.sent.find((sent) => /<->/.test(sent.text));
    assert.ok(read, 'the nearby statement was sent');
    return read;
  }

  it('reads the media from the GiST index of the positions, and keeps one plan for every centre', async () => {
    const statement = await nearbyStatement();
    const lyon = earthPointOf({ latitude: 45.764, longitude: 4.8357 });
    assert.ok(statement.values.includes(lyon), 'the centre is a value of the statement');
    const plan = (await keptPlan(t.services.platform.transactions, statement.text, statement.values)).join('\n');
    assert.match(plan, /Scan using media_earth_position|Scan on media_earth_position/, plan);
    assert.doesNotMatch(plan, /Seq Scan on media/, plan);
    // A centre in the world's corner, 100 km around, among the first five executions (those PostgreSQL
    // plans for their values before weighing the generic plan): still the one plan kept after them.
    const other = statement.values.map((value) =>
      value === lyon ? earthPointOf({ latitude: -60, longitude: -170 }) : value === metres ? 100_000 : value,
    );
    const generic = await genericPlanRuns(t.services.platform.transactions, statement.text, [
      statement.values,
      statement.values,
      other,
      ...Array.from({ length: 5 }, () => statement.values),
    ]);
    assert.ok(generic >= 3, `the generic plan ran ${generic} times of 8`);
  });
});
