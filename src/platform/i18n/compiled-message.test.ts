import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IntlMessageFormat } from 'intl-messageformat';
import { compileMessage, type MessageFormatters } from './compiled-message.ts';
import { catalogs, supportedLocales, translate } from './i18n.ts';

const formatters: MessageFormatters = {
  getNumberFormat: (locales, options) => new Intl.NumberFormat(locales, options),
  getPluralRules: (locales, options) => new Intl.PluralRules(locales, options),
};

interface Node {
  type: number;
  value?: string;
  options?: Record<string, { value: Node[] }>;
}

/** Each argument's name with values worth trying: its option keys, and numbers and strings of every kind. */
function candidateValues(ast: Node[]): Map<string, unknown[]> {
  const found = new Map<string, unknown[]>();
  const visit = (nodes: Node[]) => {
    for (const node of nodes) {
      if (node.type === 0 || node.type === 7) continue;
      const values = found.get(node.value!) ?? [0, 1, 2, 3, 5, 21, 1234.5, -1, 'x', '', 'other', undefined, null, true];
      for (const key of Object.keys(node.options ?? {})) values.push(key.startsWith('=') ? Number(key.slice(1)) : key);
      found.set(node.value!, values);
      for (const option of Object.values(node.options ?? {})) visit(option.value);
    }
  };
  visit(ast);
  return found;
}

/** Deterministic combinations: every value of each argument at least once, and some values left out. */
function combinations(candidates: Map<string, unknown[]>): Record<string, unknown>[] {
  const names = [...candidates.keys()];
  const longest = Math.max(1, ...[...candidates.values()].map((values) => values.length));
  const sets: Record<string, unknown>[] = [];
  for (let round = 0; round < longest * 3; round++) {
    const values: Record<string, unknown> = {};
    names.forEach((name, index) => {
      const list = candidates.get(name)!;
      const pick = (round * (index + 1) + index) % (list.length + 1);
      if (pick < list.length) values[name] = list[pick]; // list.length: the argument is missing
    });
    sets.push(values);
  }
  return sets;
}

describe('compiled messages', () => {
  it('render every catalog message exactly as intl-messageformat does, or leave it to it', () => {
    let compared = 0;
    for (const locale of supportedLocales) {
      for (const [key, text] of catalogs[locale]) {
        const format = new IntlMessageFormat(text, locale);
        const compiled = compileMessage(format, formatters);
        if (compiled === null) continue;
        for (const values of combinations(candidateValues(format.getAst() as Node[]))) {
          const actual = compiled(values);
          if (actual === undefined) continue;
          let expected: string;
          try {
            expected = String(format.format(values as Record<string, string>));
          } catch (error) {
            assert.fail(`${locale} ${key} ${JSON.stringify(values)}: compiled gave "${actual}", intl threw ${error}`);
          }
          assert.equal(actual, expected, `${locale} ${key} ${JSON.stringify(values)}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 1000, `only ${compared} renders compared`);
  });

  it('compile the notification texts, so a page of notifications never walks a syntax tree', () => {
    for (const locale of supportedLocales) {
      for (const [key, text] of catalogs[locale]) {
        if (!key.startsWith('notifications.')) continue;
        assert.notEqual(compileMessage(new IntlMessageFormat(text, locale), formatters), null, `${locale} ${key}`);
      }
    }
  });

  it('leave dates, tags and number styles to intl-messageformat', () => {
    for (const text of [
      '{d, date, long}',
      'a <b>bold</b> word',
      '{n, number, percent}',
      '{n, number, ::currency/EUR}',
    ]) {
      assert.equal(compileMessage(new IntlMessageFormat(text, 'en-US'), formatters), null, text);
    }
  });

  it('format numbers, plurals and selects in the locale, # as a number directly inside a plural only', () => {
    const compile = (text: string, locale = 'en-US') =>
      compileMessage(new IntlMessageFormat(text, locale), formatters)!;
    assert.equal(compile('{n, number} pts')({ n: 12345.5 }), '12,345.5 pts');
    assert.equal(compile('{n, number} pts', 'fr-FR')({ n: 12345.5 }), '12\u202f345,5 pts');
    const likes = compile('{n, plural, =0 {none} one {# like} other {# likes}}');
    assert.deepEqual(
      [0, 1, 2, 1000].map((n) => likes({ n })),
      ['none', '1 like', '2 likes', '1,000 likes'],
    );
    assert.equal(compile('{n, plural, one {# {k, select, a {A#} other {O}}} other {x}}')({ n: 1, k: 'a' }), '1 A#');
    assert.equal(compile('{n, plural, offset:1 one {# other} other {# others}}')({ n: 2 }), '1 other');
  });

  it('hand unusual values back, so intl-messageformat renders or refuses them as before', () => {
    const compiled = compileMessage(new IntlMessageFormat('Hello {name}', 'en-US'), formatters)!;
    assert.equal(compiled({}), undefined);
    assert.equal(compiled({ name: { toString: () => 'object' } }), undefined);
    assert.throws(() => translate('en-US', 'notifications.follow.received.body', {}), /actorDisplayName/);
  });
});
