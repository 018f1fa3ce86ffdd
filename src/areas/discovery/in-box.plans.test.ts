/**
 * The plan PostgreSQL keeps for a box's media (GET /api/media/in-bounds at a street's zoom): the box
 * read from the map's GiST index, and planned once per connection, not at every request. The box's
 * values are hidden from the plans (geo-sql.ts inBoxPlaceholders 'hidden'): seen, at a million media a
 * small box's plan made for its values looked so much cheaper than the kept one that PostgreSQL planned
 * the statement again at every execution (docs/benchmarks.md, session 42).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { genericPlanRuns, keptPlan } from '../../../test/helpers/kept-plan.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { type SentStatement, watchStatements } from '../../../test/helpers/statement-counter.ts';

describe('the plan kept for a box of the map', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    const owner = await createUser(t);
    // 600 photos on a grid over the world, and 5 in a street of Lyon.
    for (let i = 0; i < 600; i += 1)
      await createMediaRow(t, owner.id, { latitude: -60 + (i % 30) * 4, longitude: -170 + Math.floor(i / 30) * 17 });
    for (let i = 0; i < 5; i += 1)
      await createMediaRow(t, owner.id, { latitude: 45.764 + i * 0.0005, longitude: 4.8357 + i * 0.0005 });
    await t.deps.database.db.execute(sql`ANALYZE media`);
  });
  after(() => t.close());

  /** The statement reading a street's box of Lyon (zoom 16: deeper than the precomputed cells). */
  async function boxStatement(): Promise<SentStatement> {
    const statements = watchStatements(t.deps.database);
    const res = await t.request({
      method: 'GET',
      url: '/api/media/in-bounds?south=45.763&west=4.834&north=45.768&east=4.840&zoom=16',
    });
    statements.restore();
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json.data.length, 5, res.body);
    const read = statements.sent.find((sent) => /<@ box\(point/.test(sent.text));
    assert.ok(read, 'the box statement was sent');
    return read;
  }

  it('reads the box from the GiST index of the positions, and keeps that plan for every box', async () => {
    const statement = await boxStatement();
    const plan = (await keptPlan(t.services.platform.transactions, statement.text, statement.values)).join('\n');
    assert.match(plan, /Scan on media_map_position|Scan using media_map_position/, plan);
    assert.doesNotMatch(plan, /Seq Scan on media/, plan);
    // Another box (the whole grid's corner) among the executions: still the one plan.
    const south = statement.values.indexOf(45.763);
    const other = statement.values.map((value, at) => (at === south ? -60 : value));
    const generic = await genericPlanRuns(t.services.platform.transactions, statement.text, [
      ...Array.from({ length: 5 }, () => statement.values),
      other,
      statement.values,
      statement.values,
    ]);
    assert.ok(generic >= 3, `the generic plan ran ${generic} times of 8`);
  });
});
