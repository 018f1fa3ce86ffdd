import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { AppError } from './error-catalogue.ts';
import { decodeCursor, defineKeyset, encodeCursor, pageLinks, pageOf, pageRequest } from './pagination.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const probe = defineKeyset<{ createdAt: Date; id: string }>({
  name: 'probe',
  shape: ['timestamp', 'uuid'],
  columns: [],
  keyOf: (row) => [row.createdAt, row.id],
});

describe('cursors', () => {
  it('round-trip timestamps and ids exactly', () => {
    const cursor = encodeCursor('probe', [at(5), uuid(7)]);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeCursor(cursor, 'probe', ['timestamp', 'uuid'], 'cursor'), [at(5), uuid(7)]);
  });

  it('refuse anything this service did not make, naming the parameter', () => {
    const bad = [
      '',
      '!!!',
      'e30',
      encodeCursor('probe', [at(1)]),
      encodeCursor('probe', ['nope', uuid(1)]),
      encodeCursor('probe', [at(1), 'x']),
      Buffer.from('{"a":1}').toString('base64url'),
      // well-formed, but not a timestamp this service writes (nor one PostgreSQL can hold)
      encodeCursor('probe', ['0000-01-01T00:00:00.000Z', uuid(1)]),
      encodeCursor('probe', ['-000001-01-01T00:00:00.000Z', uuid(1)]),
      encodeCursor('probe', ['+275760-09-13T00:00:00.000Z', uuid(1)]),
      encodeCursor('probe', ['2026-01-01', uuid(1)]),
      // a cursor of another list, with a key of the same shape
      encodeCursor('other-list', [at(1), uuid(1)]),
    ];
    for (const raw of bad) {
      assert.throws(
        () => decodeCursor(raw, 'probe', ['timestamp', 'uuid'], 'before'),
        (error: unknown) =>
          error instanceof AppError && error.code === 'invalidCursor' && error.options.source?.parameter === 'before',
        raw,
      );
    }
  });

  it('refuse cursor and before together', () => {
    const c = encodeCursor('probe', [at(1), uuid(1)]);
    assert.throws(() => pageRequest({ cursor: c, before: c }, probe), /cursor and before/);
  });
});

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
    assert.deepEqual(decodeCursor(page.nextCursor!, 'probe', ['timestamp', 'uuid'], 'cursor'), [at(4), uuid(4)]);
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

  it('links keep other query parameters and replace the position', () => {
    const page = { items: [], nextCursor: 'NEXT', prevCursor: 'PREV' };
    const request = {
      url: '/api/x?filter=unread&limit=5&cursor=OLD',
      server: { publicUrl: 'https://example.test/travel' },
    } as unknown as FastifyRequest;
    const links = pageLinks(request, page);
    assert.equal(links.self, 'https://example.test/travel/api/x?filter=unread&limit=5&cursor=OLD');
    assert.equal(links.first, 'https://example.test/travel/api/x?filter=unread&limit=5');
    assert.equal(links.next, 'https://example.test/travel/api/x?filter=unread&limit=5&cursor=NEXT');
    assert.equal(links.prev, 'https://example.test/travel/api/x?filter=unread&limit=5&before=PREV');
  });
});
