/** Domain events published inside the producer's transaction, on the test engine. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../../../test/helpers/database.ts';
import type { Database } from '../db/database.ts';
import { queryRows } from '../db/rows.ts';
import { Transactions } from '../db/transactions.ts';
import { EventBus } from './domain-events.ts';

declare module './domain-events.ts' {
  interface DomainEvents {
    'probe.happened': { n: number };
  }
}

describe('domain events', () => {
  let database: Database;
  let transactions: Transactions;
  const failures: string[] = [];
  before(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`CREATE TABLE event_probe (n integer NOT NULL, source text NOT NULL)`);
    transactions = new Transactions(database.db, () => {});
  });
  after(() => database.close());
  beforeEach(async () => {
    await database.db.execute(sql`DELETE FROM event_probe`);
    failures.length = 0;
  });

  const newBus = () =>
    new EventBus(transactions, (_error, event, subscriber) => failures.push(`${String(event)} ${subscriber}`));
  const write = (n: number, source: string) =>
    transactions.db.execute(sql`INSERT INTO event_probe (n, source) VALUES (${n}, ${source})`);
  const rows = async () =>
    (
      await queryRows<{ n: number; source: string }>(
        database.db,
        sql`SELECT n, source FROM event_probe ORDER BY source`,
      )
    ).map((row) => `${row.source}:${row.n}`);

  it('in-transaction subscribers write in the producer transaction; after-commit ones run after it commits', async () => {
    const bus = newBus();
    const seenAfterCommit: string[][] = [];
    bus.subscribe('probe.happened', 'inTransaction', 'probe.mirror', async ({ n }) => {
      await write(n * 10, 'subscriber');
    });
    bus.subscribe('probe.happened', 'afterCommit', 'probe.mail', async () => {
      seenAfterCommit.push(await rows());
    });
    await transactions.run(async () => {
      await write(1, 'producer');
      await bus.publish('probe.happened', { n: 1 });
      assert.deepEqual(seenAfterCommit, [], 'after-commit subscribers wait for the commit');
    });
    assert.deepEqual(await rows(), ['producer:1', 'subscriber:10']);
    assert.deepEqual(seenAfterCommit, [['producer:1', 'subscriber:10']]);
  });

  it('an in-transaction subscriber that throws rolls the producer back; after-commit subscribers never run', async () => {
    const bus = newBus();
    let mailed = false;
    bus.subscribe('probe.happened', 'inTransaction', 'probe.refuse', () => {
      throw new Error('refused');
    });
    bus.subscribe('probe.happened', 'afterCommit', 'probe.mail', () => {
      mailed = true;
    });
    await assert.rejects(
      transactions.run(async () => {
        await write(2, 'producer');
        await bus.publish('probe.happened', { n: 2 });
      }),
      /refused/,
    );
    assert.deepEqual(await rows(), []);
    assert.equal(mailed, false);
  });

  it('an after-commit subscriber that throws is reported and keeps the change and the other subscribers', async () => {
    const bus = newBus();
    let second = false;
    bus.subscribe('probe.happened', 'afterCommit', 'probe.broken', () => {
      throw new Error('down');
    });
    bus.subscribe('probe.happened', 'afterCommit', 'probe.second', () => {
      second = true;
    });
    await bus.publish('probe.happened', { n: 3 });
    assert.deepEqual(failures, ['probe.happened probe.broken']);
    assert.equal(second, true);
  });

  it('refuses the same subscriber twice and lists who subscribes to what', () => {
    const bus = newBus();
    bus.subscribe('probe.happened', 'inTransaction', 'probe.a', () => {});
    assert.throws(() => bus.subscribe('probe.happened', 'afterCommit', 'probe.a', () => {}), /twice/);
    assert.deepEqual(bus.subscribers(), [{ event: 'probe.happened', phase: 'inTransaction', subscriber: 'probe.a' }]);
  });

  it('runs a subscriber asked to be first before those subscribed earlier', async () => {
    const bus = newBus();
    const order: string[] = [];
    bus.subscribe('probe.happened', 'inTransaction', 'probe.early', () => {
      order.push('early');
    });
    bus.subscribe('probe.happened', 'inTransaction', 'probe.late', () => {
      order.push('late');
    });
    bus.subscribe(
      'probe.happened',
      'inTransaction',
      'probe.first',
      () => {
        order.push('first');
      },
      { first: true },
    );
    await bus.publish('probe.happened', { n: 1 });
    assert.deepEqual(order, ['first', 'early', 'late']);
  });
});
