import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogs, negotiateLocale, supportedLocales, translate } from './i18n.ts';

describe('message catalogs', () => {
  it('define the same keys in every locale', () => {
    const reference = [...catalogs['en-US'].keys()].sort();
    for (const locale of supportedLocales) {
      assert.deepEqual([...catalogs[locale].keys()].sort(), reference, `${locale} differs from en-US`);
    }
  });

  it('render ICU placeholders and fall back to the key when a message is missing', () => {
    assert.equal(
      translate('en-US', 'errors.rateLimited', { seconds: 30 }),
      'Too many requests; try again in 30 seconds.',
    );
    assert.equal(
      translate('fr-FR', 'errors.rateLimited', { seconds: 30 }),
      'Trop de requêtes ; réessayez dans 30 secondes.',
    );
    assert.equal(translate('fr-FR', 'no.such.key'), 'no.such.key');
  });
});

describe('Accept-Language negotiation', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'en-US'],
    ['', 'en-US'],
    ['fr-FR', 'fr-FR'],
    ['fr', 'fr-FR'],
    ['fr-CA,fr;q=0.9', 'fr-FR'],
    ['de-DE, fr;q=0.5, en;q=0.4', 'fr-FR'],
    ['en-GB;q=0.8, fr;q=0.9', 'fr-FR'],
    ['de, es', 'en-US'],
    ['fr;q=0, en', 'en-US'],
    ['*', 'en-US'],
    ['garbage;;;q=abc', 'en-US'],
  ];
  for (const [header, expected] of cases) {
    it(`picks ${expected} for ${JSON.stringify(header)}`, () => assert.equal(negotiateLocale(header), expected));
  }
});
