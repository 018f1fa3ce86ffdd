import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatNullableTimestamp, formatTimestamp } from './time.ts';

/** What the function must write: toISOString's form with +00:00 for Z. */
const expected = (date: Date) => `${date.toISOString().slice(0, -1)}+00:00`;

describe('formatTimestamp', () => {
  it('writes the same instant as toISOString, for every kind of day and time', () => {
    const edges = [
      0,
      -1,
      1,
      86_399_999,
      86_400_000,
      -86_400_000,
      951_782_400_000 /* 2000-02-29 */,
      4_107_542_400_000 /* 2100-03-01 */,
      Date.UTC(1600, 1, 29),
      Date.UTC(1, 0, 1),
      Date.UTC(0, 0, 1) - 1900 * 365.2425 * 86_400_000,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2026, 10, 21, 15, 41, 7, 123),
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const spread = Array.from({ length: 20_000 }, () => Math.floor((random() - 0.45) * 2 * 253_402_300_799_999));
    for (const time of [...edges, ...spread]) {
      const date = new Date(time);
      assert.equal(formatTimestamp(date), expected(date), String(time));
    }
  });

  it('writes years beyond 9999 and before year 0 as toISOString does, and refuses an invalid date', () => {
    for (const time of [253_402_300_800_000, 8.64e15, -62_167_219_200_001, -8.64e15]) {
      assert.equal(formatTimestamp(new Date(time)), expected(new Date(time)));
    }
    assert.throws(() => formatTimestamp(new Date(Number.NaN)), RangeError);
    assert.equal(formatNullableTimestamp(null), null);
  });
});
