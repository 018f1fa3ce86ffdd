/**
 * Intl formatters are made once per locale (docs/development.md, Intl formatters): no code of an area
 * makes one (`new Intl.…`, `Intl.…(` without `new`, or `toLocaleString` and its kin, which make one
 * at each call) but through platform/i18n/locale-formats.ts. Left out: the browser's own
 * scripts (web/assets/client: one formatter a page load), and a formatter made once when a module
 * loads, listed here with its reason.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const areas = new URL('../../src/areas/', import.meta.url);
const makesFormatter = /\bIntl\.[A-Z]\w*\s*\(|\.toLocale\w*String\s*\(/;
const madeOnceAtLoad = new Set([
  // The French names of the regions, for the geography's reference data: a module constant.
  'geography/reference-data/m49.ts',
]);

describe('Intl formatters in the areas', () => {
  it('finds none made in the code that answers requests', () => {
    const files = readdirSync(areas, { recursive: true, encoding: 'utf8' }).filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        !file.startsWith('web/assets/client/') &&
        !madeOnceAtLoad.has(file),
    );
    const made = files.flatMap((file) =>
      readFileSync(new URL(file, areas), 'utf8')
        .split('\n')
        .flatMap((line, index) => (makesFormatter.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(made, []);
  });
});
