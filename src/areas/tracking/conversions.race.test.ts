/**
 * Two postbacks of one partner transaction racing, each inside a caller's transaction (PostgreSQL: two
 * connections). The loser's insert waits for the winner's commit, fails on the unique key, and must
 * answer the winner as a replay in its caller's transaction, which goes on: the insert is in a savepoint.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { onPostgresOnly } from '../../../test/helpers/database.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { createOfferFactory } from '../../../test/helpers/offer-factory.ts';
import { queryRows } from '../../platform/db/rows.ts';

describe("conversions racing inside callers' transactions (PostgreSQL)", onPostgresOnly, () => {
  let t: TestApp;
  let ref: string;
  before(async () => {
    t = await createTestApp();
    const ada = await createUser(t);
    const offerId = await (await createOfferFactory(t, 'Harbour Inn')).newOffer();
    const media = await createMediaRow(t, ada.id);
    const click = await t.request({
      method: 'POST',
      url: `/api/offers/${offerId}/clicks`,
      body: { mediaId: media.id },
    });
    ref = click.json.data.id;
  });
  after(() => t.close());

  /** Until another session of this database waits for a lock (the loser's insert on the winner's key). */
  async function untilSomeoneWaitsForALock() {
    for (let tries = 0; tries < 500; tries++) {
      const [row] = await queryRows<{ n: number }>(
        t.deps.database.db,
        sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (row?.n !== 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no session waited for a lock');
  }

  it("answers the loser the winner as a replay, and the loser's transaction commits", async () => {
    const { transactions } = t.services.platform;
    const { conversions } = t.services.areas.tracking;
    const input = { ref, amount: 4_200, currency: 'EUR', partnerTransactionId: 'race-0001' };
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let winnerRecorded = () => {};
    const recorded = new Promise<void>((resolve) => {
      winnerRecorded = resolve;
    });
    const winner = transactions.run(async () => {
      const result = await conversions.record(input);
      winnerRecorded();
      await held;
      return result;
    });
    await recorded;
    const loser = transactions.run(async () => {
      const result = await conversions.record(input);
      // The caller's transaction goes on after the lost insert.
      const [row] = await queryRows<{ n: number }>(transactions.db, sql`SELECT 1 AS n`);
      return { result, wentOn: row?.n === 1 };
    });
    await untilSomeoneWaitsForALock();
    release();
    const [won, lost] = await Promise.all([winner, loser]);
    assert.equal(won.replay, false);
    assert.equal(lost.result.replay, true);
    assert.equal(lost.result.conversion.id, won.conversion.id);
    assert.equal(lost.wentOn, true);
    const listed = await t.request({
      method: 'GET',
      url: '/admin/audit?action=tracking.conversion',
      token: adminToken,
    });
    assert.equal(listed.statusCode, 200);
    const audited = listed.json.data.filter(
      (entry: { attributes: { payload: { partnerTransactionId?: string } } }) =>
        entry.attributes.payload.partnerTransactionId === input.partnerTransactionId,
    );
    assert.equal(audited.length, 1);
  });
});
