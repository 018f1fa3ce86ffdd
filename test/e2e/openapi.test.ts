import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { jsonApiMediaType } from '../../src/platform/http/jsonapi.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

describe('OpenAPI', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('describes every /api and /admin route the app serves, with its security', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const spec = res.json;
    assert.equal(spec.openapi, '3.1.0');
    const { routes, app } = await buildApp(t.deps, { logger: false });
    await app.close();
    const documented = routes.filter(
      (route) =>
        /^\/(api|admin)\//.test(route.path) &&
        !route.path.startsWith('/api/docs') &&
        route.path !== '/api/openapi.json',
    );
    assert.ok(documented.length > 5);
    for (const route of documented) {
      const operation = spec.paths[route.path]?.[route.method.toLowerCase()];
      assert.ok(operation, `${route.method} ${route.path} is missing from the OpenAPI document`);
      // The notification stream takes the web sign-in cookie too (the pages' EventSource).
      const cookieToo = route.path === '/api/users/me/notifications/stream';
      if (route.auth === 'user')
        assert.deepEqual(
          operation.security,
          cookieToo ? [{ sessionToken: [] }, { sessionCookie: [] }] : [{ sessionToken: [] }],
          `${route.method} ${route.path}`,
        );
      if (route.auth === 'admin')
        assert.deepEqual(operation.security, [{ adminToken: [] }], `${route.method} ${route.path}`);
    }
  });

  it('describes empty answers as empty, and each body with the media type the service sends', async () => {
    const spec = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json;
    const responseOf = (method: string, path: string, status: number) => {
      const response = spec.paths[path]?.[method]?.responses?.[String(status)];
      assert.ok(response, `${method.toUpperCase()} ${path} documents no ${status}`);
      return response;
    };
    for (const [method, path, status] of [
      ['delete', '/api/auth/sessions/{id}', 204],
      ['post', '/api/auth/logout', 204],
      ['delete', '/api/users/me/address', 204],
      ['delete', '/api/users/me/notifications/{id}', 204],
      ['delete', '/api/users/me/media/{mediaId}/bookmark', 204],
      ['delete', '/api/users/me/bookmarks/collections/{collectionId}', 204],
      ['delete', '/api/users/me/media/{mediaId}/reaction', 204],
      ['delete', '/api/users/me/media/{mediaId}/description', 204],
      ['delete', '/api/users/me/avatar', 204],
      ['delete', '/api/users/me/following/{targetUserId}', 204],
      ['post', '/api/auth/forgot-password', 202],
      ['post', '/api/auth/resend-confirmation', 202],
      ['post', '/api/newsletter/subscribe', 202],
      ['delete', '/api/users/me', 202],
      ['get', '/media/{hex}.{ext}', 304],
      ['get', '/go/offer/{id}', 302],
    ] as const) {
      assert.equal(responseOf(method, path, status).content, undefined, `${method.toUpperCase()} ${path} ${status}`);
    }

    // The API's bodies are JSON:API documents (the archive of GET /api/users/me/export, oEmbed's plain
    // JSON, a trip's GeoJSON route and the event stream aside).
    for (const [path, operations] of Object.entries<
      Record<string, { responses: Record<string, { content?: object }> }>
    >(spec.paths)) {
      if (!/^\/(api|admin)\//.test(path)) continue;
      for (const [method, operation] of Object.entries(operations))
        for (const [status, response] of Object.entries(operation.responses)) {
          const types = Object.keys(response.content ?? {});
          const other: Record<string, string> = {
            '/api/users/me/export': 'application/zip',
            '/api/users/me/notifications/stream': 'text/event-stream',
            '/api/oembed': 'application/json',
            '/api/trips/{tripId}/route': 'application/geo+json',
          };
          const expected = (status === '200' && other[path]) || jsonApiMediaType;
          assert.ok(
            types.every((type) => type === expected),
            `${method.toUpperCase()} ${path} ${status}: ${types}`,
          );
        }
    }

    // A status beside the main one has its own schema: the same document.
    for (const path of ['/api/offers/{id}/clicks', '/admin/tracking/conversions']) {
      const created = responseOf('post', path, 201).content[jsonApiMediaType].schema;
      assert.deepEqual(responseOf('post', path, 200).content[jsonApiMediaType].schema, created, path);
      assert.ok(JSON.stringify(created).includes('#/components/schemas/'), path);
    }
    assert.deepEqual(Object.keys(responseOf('get', '/media/{hex}.{ext}', 206).content), ['image/*']);

    // Outside /api and /admin: JSON is plain JSON, and an error is a page unless the client asks for JSON.
    assert.deepEqual(Object.keys(responseOf('post', '/login', 200).content), ['application/json']);
    assert.deepEqual(Object.keys(responseOf('get', '/travel', 404).content).sort(), [jsonApiMediaType, 'text/html']);
    assert.deepEqual(Object.keys(responseOf('get', '/api/media/trending', 400).content), [jsonApiMediaType]);
  });

  it('declares every tag its operations use, with a description', async () => {
    const spec = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json;
    const declared = new Map<string, string>(
      spec.tags.map((tag: { name: string; description: string }) => [tag.name, tag.description]),
    );
    const used = new Set(
      Object.values<Record<string, { tags: string[] }>>(spec.paths).flatMap((operations) =>
        Object.values(operations).flatMap((operation) => operation.tags),
      ),
    );
    for (const tag of used) assert.ok(declared.get(tag), `the tag ${tag} is not declared with a description`);
    assert.ok(used.has('comments') && used.has('web'));
  });

  it('serves a readable reference page at /api/docs', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs/' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(res.body, /swagger/i);
  });

  it('covers every route of docs/interface-routes.tsv that the app registers', async () => {
    const spec = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json;
    const lines = readFileSync(new URL('../../docs/interface-routes.tsv', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    const { routes, app } = await buildApp(t.deps, { logger: false });
    await app.close();
    const registered = new Set(routes.map((route) => `${route.method} ${route.path}`));
    for (const line of lines) {
      const [method = '', path = '', auth = ''] = line.split('\t');
      if (!registered.has(`${method} ${path}`) || !/^\/(api|admin)\//.test(path)) continue;
      assert.ok(spec.paths[path]?.[method.toLowerCase()], `${method} ${path}`);
      const route = routes.find((r) => r.method === method && r.path === path);
      // The interface's auth column is the law: none routes may identify a viewer (optional), never require one.
      const expected = auth === 'none' ? ['none', 'optional'] : [auth];
      assert.ok(
        expected.includes(route?.auth ?? ''),
        `${method} ${path} is ${route?.auth}, the interface says ${auth}`,
      );
    }
  });
});
