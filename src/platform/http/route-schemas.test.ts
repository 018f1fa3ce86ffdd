import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import Fastify from 'fastify';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { serializerCompiler } from './serialization.ts';
import { validatorCompiler } from './validation.ts';

describe('route schemas', () => {
  let t: TestApp | undefined;
  after(() => t?.close());

  it('compile for every route: validators with Ajv, response serializers with fast-json-stringify', async () => {
    // The server compiles each at its first use; here all of them at registration, where a bad one throws.
    t = await createTestApp({ compileSchemas: 'now' });
    const served = t.app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .filter((line) => /\((GET|POST|PUT|PATCH|DELETE)/.test(line));
    assert.ok(served.length > 100, `only ${served.length} routes`);
    const ping = await t.request({ method: 'GET', url: '/api/ping' });
    assert.equal(ping.statusCode, 200);
  });

  it('compiled at first use, still validate and check answers as compiled ones do', async () => {
    for (const when of ['firstUse', 'now'] as const) {
      const app = Fastify({ logger: false });
      app.setValidatorCompiler(validatorCompiler(when));
      app.setSerializerCompiler(serializerCompiler({ check: true, when }));
      app.post(
        '/echo',
        {
          schema: {
            body: {
              type: 'object',
              properties: { n: { type: 'integer' } },
              required: ['n'],
              additionalProperties: false,
            },
            response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
          },
        },
        // 4 answers a property the schema does not declare.
        async (request) => {
          const { n } = request.body as { n: number };
          return n === 4 ? { n, hidden: 'not in the schema' } : { n };
        },
      );
      const ok = await app.inject({ method: 'POST', url: '/echo', payload: { n: 3 } });
      assert.deepEqual([ok.statusCode, ok.json()], [200, { n: 3 }], when);
      const undeclared = await app.inject({ method: 'POST', url: '/echo', payload: { n: 4 } });
      assert.equal(undeclared.statusCode, 500, when);
      assert.match(undeclared.json().message, /POST \/echo does not read as its schema says: \/hidden/, when);
      const bad = await app.inject({ method: 'POST', url: '/echo', payload: { n: 'x', extra: 1 } });
      assert.equal(bad.statusCode, 400, when);
      assert.match(bad.json().message, /must be integer|must NOT have additional properties/, when);
      await app.close();
    }
  });
});
