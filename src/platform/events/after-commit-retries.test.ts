/**
 * After-commit work tried again: a subscriber's failure is filed under its key, the job runs the work
 * again with backoff until it succeeds, and gives the key up after its last attempt, on the test engine.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { openTestDatabase } from '../../../test/helpers/database.ts';
import { ManualClock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { queryRows } from '../db/rows.ts';
import { Transactions } from '../db/transactions.ts';
import { AfterCommitRetriesRepository } from './after-commit-retries.repository.ts';
import { AfterCommitRetries, maxAttempts, retryDelayMs } from './after-commit-retries.ts';
import { EventBus } from './domain-events.ts';

declare module './domain-events.ts' {
  interface DomainEvents {
    'probe.retried': { itemId: string };
    'probe.shared': { itemId: string };
  }
}

describe('after-commit retries', () => {
  let database: Database;
  let transactions: Transactions;
  const clock = new ManualClock('2026-11-30T10:00:00.000Z');
  const logged: Record<string, unknown>[] = [];
  const subscriberFailures: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line !== '') logged.push(JSON.parse(line));
        done();
      },
    }),
  ) as unknown as FastifyBaseLogger;

  before(async () => {
    database = await openTestDatabase();
    transactions = new Transactions(database.db, () => {});
  });
  after(() => database.close());
  beforeEach(async () => {
    await database.db.execute(sql`DELETE FROM after_commit_retries`);
    logged.length = 0;
    subscriberFailures.length = 0;
  });

  /** A bus whose one retried subscriber runs `work`. */
  function busWith(work: (key: string) => Promise<void>) {
    const retries = new AfterCommitRetries(new AfterCommitRetriesRepository(transactions), clock, logger);
    const bus = new EventBus(
      transactions,
      (_error, event, subscriber) => subscriberFailures.push(`${String(event)} ${subscriber}`),
      retries,
    );
    bus.subscribeRetried('probe.retried', 'probe.derived', ({ itemId }) => itemId, work);
    return { bus, retries };
  }
  const rows = () =>
    queryRows<{ work: string; key: string; attempts: number; due: string; lastError: string }>(
      database.db,
      sql`SELECT work, key, attempts, to_char(next_attempt_at AT TIME ZONE 'UTC', 'HH24:MI:SS') AS due,
                 last_error AS "lastError"
          FROM after_commit_retries ORDER BY work, key`,
    );
  const publish = (bus: EventBus, itemId: string) => transactions.run(() => bus.publish('probe.retried', { itemId }));

  it('files a failed work under its key, and runs it again until it succeeds, then keeps nothing', async () => {
    const runs: string[] = [];
    let failuresLeft = 2;
    const { bus, retries } = busWith(async (key) => {
      runs.push(key);
      if (failuresLeft-- > 0) throw new Error(`lock wait timed out for ${key}`);
    });
    await publish(bus, 'item-1');
    assert.deepEqual(subscriberFailures, [], 'a failure filed is no subscriber error');
    assert.deepEqual(
      logged.filter((line) => line.event === 'events.retryFiled').map(({ level, work, key }) => ({ level, work, key })),
      [{ level: 40, work: 'probe.derived', key: 'item-1' }],
      'but a warning',
    );
    assert.deepEqual(await rows(), [
      {
        work: 'probe.derived',
        key: 'item-1',
        attempts: 0,
        due: '10:00:00',
        lastError: 'lock wait timed out for item-1',
      },
    ]);

    assert.deepEqual(await retries.runDue(), { retried: 1, succeeded: 0, failedAgain: 1, givenUp: 0, waiting: 1 });
    assert.deepEqual(
      (await rows()).map(({ attempts, due }) => ({ attempts, due })),
      [{ attempts: 1, due: '10:01:00' }],
      'tried again a minute later',
    );
    assert.deepEqual(await retries.runDue(), { retried: 0, succeeded: 0, failedAgain: 0, givenUp: 0, waiting: 1 });

    clock.advance(retryDelayMs(1));
    assert.deepEqual(await retries.runDue(), { retried: 1, succeeded: 1, failedAgain: 0, givenUp: 0, waiting: 0 });
    assert.deepEqual(await rows(), []);
    assert.deepEqual(runs, ['item-1', 'item-1', 'item-1']);
  });

  it('keeps one row a key however often it fails, and runs nothing for a work that succeeds at once', async () => {
    let failing = true;
    const { bus, retries } = busWith(async (key) => {
      if (failing) throw new Error(`failed ${key}`);
    });
    await publish(bus, 'item-1');
    await publish(bus, 'item-1');
    await publish(bus, 'item-2');
    assert.deepEqual(
      (await rows()).map(({ key }) => key),
      ['item-1', 'item-2'],
    );
    failing = false;
    await publish(bus, 'item-3');
    assert.equal((await rows()).length, 2, 'a success files nothing');
    assert.deepEqual((await retries.runDue()).succeeded, 2);
  });

  it('keeps a failure filed while a retry of the same key ran (it asks for another run)', async () => {
    let retries: AfterCommitRetries | undefined;
    let retrying = false;
    const built = busWith(async (key) => {
      if (!retrying) throw new Error('first failure');
      // While this retry runs, another change of the same item commits and its work fails.
      await retries!.file('probe.derived', key, new Error('a later failure'));
    });
    retries = built.retries;
    await publish(built.bus, 'item-1');
    retrying = true;
    assert.deepEqual(await retries.runDue(), { retried: 1, succeeded: 1, failedAgain: 0, givenUp: 0, waiting: 1 });
    assert.deepEqual(
      (await rows()).map(({ attempts, lastError }) => ({ attempts, lastError })),
      [{ attempts: 0, lastError: 'a later failure' }],
    );
  });

  it('gives a key up after its last attempt, and says so in the log', async () => {
    let runs = 0;
    const { bus, retries } = busWith(async () => {
      runs += 1;
      throw new Error('still failing');
    });
    await publish(bus, 'item-1');
    let report = await retries.runDue();
    while (report.waiting > 0) {
      const [row] = await rows();
      clock.advance(retryDelayMs(row!.attempts));
      report = await retries.runDue();
    }
    assert.equal(report.givenUp, 1);
    assert.equal(runs, 1 + maxAttempts, 'the first run, then every retry');
    const givenUp = logged.filter((line) => line.event === 'events.retryGivenUp');
    assert.deepEqual(
      givenUp.map(({ work, key, attempts }) => ({ work, key, attempts })),
      [{ work: 'probe.derived', key: 'item-1', attempts: maxAttempts }],
    );
  });

  it('lets two runs at once retry a row once: the first claims it', { timeout: 20_000 }, async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const retrying = new Promise<void>((resolve) => {
      started = resolve;
    });
    let runs = 0;
    const { bus, retries } = busWith(async () => {
      runs += 1;
      if (runs === 1) throw new Error('first failure');
      started();
      await held;
    });
    await publish(bus, 'item-1');
    const first = retries.runDue();
    // The first run has claimed the row once its retry is under way.
    await retrying;
    assert.deepEqual(await retries.runDue(), { retried: 0, succeeded: 0, failedAgain: 0, givenUp: 0, waiting: 1 });
    release();
    assert.deepEqual(await first, { retried: 1, succeeded: 1, failedAgain: 0, givenUp: 0, waiting: 0 });
    assert.equal(runs, 2);
  });

  it('keeps the rows of a work this instance does not know (another version of the service) as failures, with backoff', async () => {
    const { retries } = busWith(async () => {});
    await retries.file('probe.renamed', 'item-1', new Error('failed on another instance'));
    assert.deepEqual(await retries.runDue(), { retried: 1, succeeded: 0, failedAgain: 1, givenUp: 0, waiting: 1 });
    assert.deepEqual(
      (await rows()).map(({ work, attempts, lastError }) => ({ work, attempts, lastError })),
      [
        {
          work: 'probe.renamed',
          attempts: 1,
          lastError: 'no after-commit work is named probe.renamed in this instance',
        },
      ],
    );
  });

  it('lets events share a work, and refuses a name given to another work', () => {
    const { bus } = busWith(async () => {});
    const shared = async () => {};
    bus.subscribeRetried('probe.shared', 'probe.sharedWork', ({ itemId }) => itemId, shared);
    bus.subscribeRetried('probe.retried', 'probe.sharedWork', ({ itemId }) => itemId, shared);
    assert.throws(
      () =>
        bus.subscribeRetried(
          'probe.shared',
          'probe.derived',
          ({ itemId }) => itemId,
          async () => {},
        ),
      /registered twice/,
    );
  });
});
