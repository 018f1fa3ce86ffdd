import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PgDialect } from 'drizzle-orm/pg-core';
import { literal } from './literals.ts';

const text = (value: string | number | boolean) => new PgDialect().sqlToQuery(literal(value));

describe('literal', () => {
  it('writes the value into the text, with no parameter', () => {
    assert.deepEqual(text('post'), { sql: "'post'", params: [] });
    assert.deepEqual(text(2), { sql: '2', params: [] });
    assert.deepEqual(text(false), { sql: 'false', params: [] });
  });

  it("doubles a string's quotes and refuses numbers SQL cannot write", () => {
    assert.equal(text("it's").sql, "'it''s'");
    assert.throws(() => literal(Number.NaN), /finite/);
    assert.throws(() => literal(Number.POSITIVE_INFINITY), /finite/);
  });
});
