import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { parseTimestamptz } from './pg-type-parsers.ts';

const standard = pg.types.getTypeParser(1184, 'text') as (text: string) => Date | number;
const same = (text: string) =>
  assert.equal(Number(parseTimestamptz(text)), Number(standard(text)), `${text} read differently`);

describe('timestamptz parser', () => {
  it('reads what PostgreSQL writes as pg does, whatever the fraction and the offset', () => {
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * below);
    };
    const pad = (value: number, width: number) => String(value).padStart(width, '0');
    for (let i = 0; i < 20_000; i++) {
      const fractionDigits = random(7);
      const fraction = fractionDigits === 0 ? '' : `.${pad(random(10 ** fractionDigits), fractionDigits)}`;
      const offset = [`+00`, `-05`, `+05:30`, `-09:30`, `+14`][random(5)];
      same(
        `${pad(1000 + random(9000), 4)}-${pad(1 + random(12), 2)}-${pad(1 + random(28), 2)} ` +
          `${pad(random(24), 2)}:${pad(random(60), 2)}:${pad(random(60), 2)}${fraction}${offset}`,
      );
    }
  });

  it('reads every day of leap, common and century years as pg does', () => {
    for (const year of [1000, 1600, 1700, 1900, 1970, 1999, 2000, 2024, 2026, 2100, 2400, 9999]) {
      for (let day = Date.UTC(year, 0, 1); day < Date.UTC(year + 1, 0, 1); day += 86_400_000) {
        const date = new Date(day).toISOString().slice(0, 10);
        same(`${date} 00:00:00+00`);
        same(`${date} 23:59:59.999+00`);
      }
    }
  });

  it('leaves the other forms to pg: BC, infinity, early years, seconds in the offset', () => {
    for (const text of [
      '0044-03-15 12:00:00+00 BC',
      '0099-01-01 00:00:00+00',
      '0999-12-31 23:59:59.999999+00',
      '1900-01-01 00:00:00+00:09:21',
      '12026-01-01 00:00:00+00',
      '2026-11-21 15:41:07.1234567+00',
    ]) {
      same(text);
    }
    assert.equal(parseTimestamptz('infinity') as unknown, Number.POSITIVE_INFINITY);
  });

  it('reads a timestamp in its instant', () => {
    assert.equal(parseTimestamptz('2026-11-21 15:41:07.123456+00').toISOString(), '2026-11-21T15:41:07.123Z');
    assert.equal(parseTimestamptz('2026-11-21 17:41:07+02').toISOString(), '2026-11-21T15:41:07.000Z');
    assert.equal(parseTimestamptz('2026-11-21 10:11:07-05:30').toISOString(), '2026-11-21T15:41:07.000Z');
  });
});
