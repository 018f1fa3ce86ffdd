import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { arrayLiteral } from './array-literal.ts';
import type { Database } from './database.ts';
import { openPglite } from './pglite-database.ts';

describe('arrayLiteral', () => {
  let database: Database & { client: { query: <T>(sql: string, params?: unknown[]) => Promise<{ rows: T[] }> } };
  before(async () => {
    database = await openPglite(null);
  });
  after(() => database.close());

  it('reads back as the same values in PostgreSQL: quotes, backslashes, braces, commas, NULL, the word NULL', async () => {
    const texts = ['plain', 'with "quotes"', 'back\\slash', '{braces}', 'a,b', ' spaced ', '', 'NULL', null, 'Ñandú'];
    const { rows } = await database.client.query<{ values: Array<string | null> }>(
      'SELECT $1::text::text[] AS values',
      [arrayLiteral(texts)],
    );
    assert.deepEqual(rows[0]!.values, texts);
  });

  it('writes numbers that read back as the same doubles and integers', async () => {
    const numbers = [0, -1, 2147483647, 48.85341, -0.1 + 0.3, 1e-7, 123456.789];
    const { rows } = await database.client.query<{ values: number[] }>('SELECT $1::text::float8[] AS values', [
      arrayLiteral(numbers),
    ]);
    assert.deepEqual(rows[0]!.values, numbers);
  });

  it('gives an empty array for no values', async () => {
    const { rows } = await database.client.query<{ n: number }>('SELECT cardinality($1::text::int[]) AS n', [
      arrayLiteral([]),
    ]);
    assert.equal(rows[0]!.n, 0);
  });
});
