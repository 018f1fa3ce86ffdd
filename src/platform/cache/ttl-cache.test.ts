import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import { TtlCache } from './ttl-cache.ts';

describe('TtlCache', () => {
  it('returns a value until it expires on the clock', () => {
    const clock = new ManualClock();
    const cache = new TtlCache<string, number>(clock, 1000, 10);
    cache.set('a', 1);
    clock.advance(999);
    assert.equal(cache.get('a'), 1);
    clock.advance(1);
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.size, 0);
  });

  it('forgets a deleted key, and evicts the oldest entry when full', () => {
    const clock = new ManualClock();
    const cache = new TtlCache<string, number>(clock, 1000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.delete('b');
    assert.equal(cache.get('b'), undefined);
    cache.set('b', 2);
    cache.set('c', 3);
    assert.equal(cache.get('a'), undefined, 'the oldest went');
    assert.deepEqual([cache.get('b'), cache.get('c')], [2, 3]);
  });

  it('forgets the entries a predicate matches, or all of them', () => {
    const cache = new TtlCache<string, { owner: string }>(new ManualClock(), 1000, 10);
    cache.set('a', { owner: 'ana' });
    cache.set('b', { owner: 'bo' });
    cache.set('c', { owner: 'ana' });
    cache.deleteWhere((value) => value.owner === 'ana');
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('c'), undefined);
    assert.deepEqual(cache.get('b'), { owner: 'bo' });
    cache.clear();
    assert.equal(cache.size, 0);
  });
});
