import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { pageLinks } from './page-links.ts';

describe('page links', () => {
  it('keep other query parameters and replace the position', () => {
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
