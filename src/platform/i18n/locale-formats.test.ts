/** Counts and region names in a locale: what Intl writes, from one formatter per locale. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { supportedLocales } from './i18n.ts';
import { formatCount, formatDay, formatDayRange, formatList, regionName } from './locale-formats.ts';

// Formatters take the machine's zone when made: every one of this file is made in Tokyo's.
const zone = process.env.TZ;
process.env.TZ = 'Asia/Tokyo';
after(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('counts and region names in a locale', () => {
  it('writes a count as Intl.NumberFormat does, whole or not', () => {
    const values = [0, 7, 999, 1000, 12_345, 1_234_567, -4321, 2.5, 1234.56, Number.MAX_SAFE_INTEGER + 2];
    for (const locale of supportedLocales) {
      const numbers = new Intl.NumberFormat(locale);
      for (const value of values) assert.equal(formatCount(locale, value), numbers.format(value), `${locale} ${value}`);
    }
    assert.equal(formatCount('en-US', 12_345), '12,345');
    assert.equal(formatCount('fr-FR', 12_345), '12\u202f345');
  });

  it("names a region in the locale's language, and gives back a code that names none", () => {
    assert.equal(regionName('en-US', 'DE'), 'Germany');
    assert.equal(regionName('fr-FR', 'DE'), 'Allemagne');
    assert.equal(regionName('fr-FR', 'PT'), new Intl.DisplayNames(['fr-FR'], { type: 'region' }).of('PT'));
    assert.equal(regionName('en-US', '1'), '1', 'a malformed code');
    assert.equal(regionName('en-US', 'not a code'), 'not a code');
  });

  it('joins lists, and writes days and ranges of days in UTC, as Intl does', () => {
    const start = new Date('2026-03-14T23:30:00Z');
    const end = new Date('2026-03-15T00:30:00Z');
    for (const locale of supportedLocales) {
      for (const items of [[], ['Lyon'], ['Lyon', 'Annecy'], ['Lyon', 'Annecy', 'Grenoble']])
        assert.equal(formatList(locale, items), new Intl.ListFormat(locale).format(items), `${locale} ${items}`);
      const utc = { timeZone: 'UTC' } as const;
      assert.equal(
        formatDayRange(locale, start, end),
        new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', ...utc }).formatRange(
          start,
          end,
        ),
      );
      for (const style of ['medium', 'long'] as const)
        assert.equal(
          formatDay(locale, end, style),
          new Intl.DateTimeFormat(locale, { dateStyle: style, ...utc }).format(end),
        );
    }
    assert.equal(formatList('en-US', ['Lyon', 'Annecy', 'Grenoble']), 'Lyon, Annecy, and Grenoble');
    // In UTC whatever the machine's zone (Tokyo, above): 23:30 UTC on the 14th is the 15th in Tokyo.
    assert.equal(formatDay('en-US', start, 'long'), 'March 14, 2026');
    assert.equal(formatDayRange('fr-FR', start, end), '14–15 mars 2026');
  });
});
