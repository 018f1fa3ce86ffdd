/** The viewers' filters cache: kept a few seconds, forgotten on every instance when the user writes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LocalBroadcast } from '../../adapters/broadcast/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { FilterWithKeywords } from './filters.repository.ts';
import { FiltersCache, filtersCacheTtlMs } from './filters-cache.ts';

// Outside a transaction, after-commit work runs at once.
const noTransaction = { afterCommit: async (fn: () => Promise<void>) => fn() } as unknown as Transactions;

describe('the viewers’ filters cache', () => {
  const filter = (title: string) => ({ title }) as FilterWithKeywords;

  it('reads a viewer once while fresh, again after the TTL, and at once after a write on any instance', async () => {
    const clock = new ManualClock(new Date('2026-11-21T12:00:00Z'));
    const broadcast = new LocalBroadcast();
    const here = new FiltersCache({ clock, broadcast, transactions: noTransaction });
    const there = new FiltersCache({ clock, broadcast, transactions: noTransaction });
    let reads = 0;
    let stored = [filter('first')];
    const load = async () => {
      reads += 1;
      return stored;
    };
    assert.deepEqual(await there.resolve('ada', load), [filter('first')]);
    assert.deepEqual(await there.resolve('ada', load), [filter('first')]);
    assert.equal(reads, 1);

    stored = [filter('second')];
    await here.changed('ada');
    assert.deepEqual(await there.resolve('ada', load), [filter('second')], 'the other instance forgot');
    assert.equal(reads, 2);

    stored = [filter('third')];
    clock.advance(filtersCacheTtlMs);
    assert.deepEqual(await there.resolve('ada', load), [filter('third')], 'no entry outlives the TTL');
  });

  it('does not keep what a read that started before a write brought back', async () => {
    const clock = new ManualClock(new Date('2026-11-21T12:00:00Z'));
    const cache = new FiltersCache({ clock, broadcast: new LocalBroadcast(), transactions: noTransaction });
    let release = () => {};
    const slow = cache.resolve(
      'ada',
      () =>
        new Promise<FilterWithKeywords[]>((resolve) => {
          release = () => resolve([filter('stale')]);
        }),
    );
    await cache.changed('ada');
    release();
    assert.deepEqual(await slow, [filter('stale')]);
    assert.deepEqual(await cache.resolve('ada', async () => [filter('fresh')]), [filter('fresh')]);
  });
});
