import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { hasMessage, supportedLocales } from '../i18n/i18n.ts';
import { errorCatalogue } from './error-catalogue.ts';

describe('error catalogue', () => {
  it('has a translated title for every code in every locale', () => {
    for (const code of Object.keys(errorCatalogue)) {
      for (const locale of supportedLocales)
        assert.ok(hasMessage(`errors.${code}`, locale), `errors.${code} missing in ${locale}`);
    }
  });

  it('is documented in docs/api.md with the same status for every code', () => {
    const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    for (const [code, status] of Object.entries(errorCatalogue)) {
      assert.match(
        doc,
        new RegExp(`\\| ${status} \\| \`${code}\` \\|`),
        `docs/api.md lacks the row for ${code} (${status})`,
      );
    }
  });
});
