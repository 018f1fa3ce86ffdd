/**
 * What a handler's context promises, checked by `npm run typecheck` (the @ts-expect-error lines fail it
 * when the promise is wrong) and at run time by a request to each route.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { defineKeyset } from '../db/keyset.ts';
import { StringEnum } from './jsonapi.ts';
import { idParam, registerRoutes, route } from './route.ts';
import type { App } from './types.ts';

const probe = defineKeyset<{ id: string }>({ name: 'probe', shape: ['uuid'], columns: [], keyOf: (row) => [row.id] });
const seen: Record<string, unknown> = {};

const routes = [
  route({
    method: 'GET',
    path: '/plain/{side}/{id}',
    auth: 'none',
    summary: 'No paging; an enum parameter',
    params: { side: StringEnum(['left', 'right'] as const), id: idParam('An id') },
    success: { status: 204 },
    handler: async (context) => {
      const side: 'left' | 'right' = context.params.side;
      // @ts-expect-error an enum parameter is its literals, not any string
      const wider: 'left' = context.params.side;
      const id: string = context.params.id;
      // @ts-expect-error no page on a route without `page`
      context.page;
      // @ts-expect-error nor links
      context.links;
      seen.plain = { side, wider, id, hasPage: 'page' in context, hasLinks: 'links' in context };
    },
  }),
  route({
    method: 'GET',
    path: '/paged',
    auth: 'none',
    summary: 'Paging',
    query: { q: Type.Optional(Type.String()) },
    page: { keyset: probe },
    success: { status: 204 },
    handler: async ({ page, links }) => {
      seen.paged = { limit: page.limit, first: links({ items: [], nextCursor: null, prevCursor: null }).first };
    },
  }),
];

describe('a route handler context', () => {
  let app: App;
  before(async () => {
    app = Fastify() as unknown as App;
    app.decorate('publicUrl', 'https://example.test');
    registerRoutes(app, 'probe', routes);
    await app.ready();
  });
  after(() => app.close());

  it('has no page nor links without `page`, and an enum parameter as sent', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    assert.equal((await app.inject(`/plain/left/${id}`)).statusCode, 204);
    assert.deepEqual(seen.plain, { side: 'left', wider: 'left', id, hasPage: false, hasLinks: false });
  });

  it('has the requested page and its links with `page`', async () => {
    assert.equal((await app.inject('/paged?limit=3')).statusCode, 204);
    assert.deepEqual(seen.paged, { limit: 3, first: 'https://example.test/paged?limit=3' });
  });
});
