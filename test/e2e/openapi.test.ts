import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
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
      if (route.auth === 'user')
        assert.deepEqual(operation.security, [{ sessionToken: [] }], `${route.method} ${route.path}`);
      if (route.auth === 'admin')
        assert.deepEqual(operation.security, [{ adminToken: [] }], `${route.method} ${route.path}`);
    }
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
