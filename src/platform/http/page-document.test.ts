import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from '../db/page.ts';
import { listDocument, pageDocument } from './page-document.ts';
import type { PagedContext } from './route.ts';

const keyOf = (row: { n: number }) => [row.n];
/** A context whose links name the page's cursors, so a test sees which page they were made of. */
const context = (limit: number): PagedContext => ({
  page: { direction: 'first', position: null, limit, list: 'probe' },
  links: (page: Page<unknown>) => ({ self: 'self', next: page.nextCursor, prev: page.prevCursor }),
});

describe('page documents', () => {
  it('present the page made of the limit + 1 rows, with meta.limit and the links of that page', () => {
    const rows = [{ n: 3 }, { n: 2 }, { n: 1 }];
    const document = listDocument(rows, context(2), { keyOf }, (row) => ({ id: String(row.n) }));
    assert.deepEqual(document.data, [{ id: '3' }, { id: '2' }]);
    assert.deepEqual(document.meta, { limit: 2 });
    assert.equal(document.links.prev, null);
    assert.ok(document.links.next !== null, 'a third row means a next page');
  });

  it("add the route's meta after the limit, and call present with the row alone", () => {
    const page = { items: [{ n: 1 }], nextCursor: null, prevCursor: null };
    const seen: unknown[][] = [];
    const document = pageDocument(
      page,
      context(20),
      (...args: unknown[]) => {
        seen.push(args);
        return 'resource';
      },
      { total: 1 },
    );
    assert.deepEqual(document, {
      data: ['resource'],
      meta: { limit: 20, total: 1 },
      links: { self: 'self', next: null, prev: null },
    });
    assert.deepEqual(seen, [[{ n: 1 }]]);
  });
});
