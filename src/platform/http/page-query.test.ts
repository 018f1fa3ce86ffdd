import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineKeyset } from '../db/keyset.ts';
import { encodeCursor } from '../db/keyset-cursor.ts';
import { AppError } from './error-catalogue.ts';
import { pageRequest } from './page-query.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const probe = defineKeyset<{ createdAt: Date; id: string }>({
  name: 'probe',
  shape: ['timestamp', 'uuid'],
  columns: [],
  keyOf: (row) => [row.createdAt, row.id],
});

describe('page queries', () => {
  it('read the position of a cursor or a before', () => {
    const c = encodeCursor('probe', [at(5), uuid(7)]);
    assert.deepEqual(pageRequest({ cursor: c, limit: 5 }, probe), {
      direction: 'after',
      position: [at(5), uuid(7)],
      limit: 5,
      list: 'probe',
    });
    assert.equal(pageRequest({ before: c }, probe).direction, 'before');
    assert.deepEqual(pageRequest({}, probe, 30), { direction: 'first', position: null, limit: 30, list: 'probe' });
  });

  // Which cursors are refused: keyset-cursor.test.ts.
  it('refuse a cursor this list did not make, naming the parameter', () => {
    for (const raw of ['!!!', encodeCursor('other-list', [at(1), uuid(1)])]) {
      for (const parameter of ['cursor', 'before'] as const) {
        assert.throws(
          () => pageRequest({ [parameter]: raw }, probe),
          (error: unknown) =>
            error instanceof AppError &&
            error.code === 'invalidCursor' &&
            error.options.source?.parameter === parameter,
          raw,
        );
      }
    }
  });

  it('refuse cursor and before together', () => {
    const c = encodeCursor('probe', [at(1), uuid(1)]);
    assert.throws(() => pageRequest({ cursor: c, before: c }, probe), /cursor and before/);
  });
});
