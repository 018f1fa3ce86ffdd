import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCursor } from './keyset-cursor.ts';
import { pageOf } from './page.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** pageOf reads a row's key only; the list's name comes with the request. */
const probe = { keyOf: (row: { createdAt: Date; id: string }) => [row.createdAt, row.id] };

describe('pages', () => {
  // rows newest first, as a repository returns them for 'first' and 'after'
  const rows = [5, 4, 3, 2, 1].map((n) => ({ createdAt: at(n), id: uuid(n) }));

  it('first page: next when more rows exist, no prev', () => {
    const page = pageOf(rows.slice(0, 3), { direction: 'first', position: null, limit: 2, list: 'probe' }, probe);
    assert.deepEqual(
      page.items.map((r) => r.id),
      [uuid(5), uuid(4)],
    );
    assert.equal(page.prevCursor, null);
    assert.ok(page.nextCursor !== null);
    assert.deepEqual(decodeCursor(page.nextCursor, 'probe', ['timestamp', 'uuid']), [at(4), uuid(4)]);
  });

  it('before page: rows fetched ascending come back newest first, with next always set', () => {
    const ascending = [
      { createdAt: at(3), id: uuid(3) },
      { createdAt: at(4), id: uuid(4) },
      { createdAt: at(5), id: uuid(5) },
    ];
    const page = pageOf(ascending, { direction: 'before', position: [at(2), uuid(2)], limit: 2, list: 'probe' }, probe);
    assert.deepEqual(
      page.items.map((r) => r.id),
      [uuid(4), uuid(3)],
    );
    assert.ok(page.prevCursor !== null, 'a row newer than the page exists');
    assert.ok(page.nextCursor !== null);
  });
});
