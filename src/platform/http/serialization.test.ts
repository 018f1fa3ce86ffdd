import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { defaultLocale } from '../i18n/i18n.ts';
import { registerErrorHandling } from './error-handler.ts';
import { serializerCompiler } from './serialization.ts';
import type { App } from './types.ts';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

/** A route answering what the test gives it, under `schema`, with the service's error answers. */
function appAnswering(answer: unknown, check: boolean, responseSchema: object = schema) {
  const app = Fastify({ logger: false });
  app.setSerializerCompiler(serializerCompiler({ check, when: 'firstUse' }));
  app.decorateRequest('locale', defaultLocale);
  registerErrorHandling(app as unknown as App);
  app.get('/api/thing', { schema: { response: { 200: responseSchema } } }, async () => answer);
  return app;
}

describe('answers written by JSON.stringify, checked against their schema', () => {
  it('sends an answer that reads as its schema says exactly as JSON.stringify writes it, checked or not', async () => {
    const answer = { tags: ['a', 'é "quoted"\n'], name: 'Zoë', at: '2026-11-21T12:00:00.000+00:00' };
    for (const check of [true, false]) {
      const app = appAnswering(answer, check);
      const response = await app.inject({ method: 'GET', url: '/api/thing' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, JSON.stringify(answer));
      // Written as UTF-8 bytes: the length counts the bytes of 'ë' and 'é', not the characters.
      assert.equal(response.headers['content-length'], String(Buffer.byteLength(JSON.stringify(answer))));
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      await app.close();
    }
  });

  it('writes an answer as its UTF-8 bytes, checked or not (Node then sends them beside the header, no text copied)', () => {
    const answer = { tags: ['é'], name: 'Zoë', at: '2026-11-21T12:00:00.000+00:00' };
    for (const check of [true, false]) {
      const serialize = serializerCompiler({ check, when: 'firstUse' })({
        schema,
        method: 'GET',
        url: '/api/thing',
        httpStatus: '200',
      }) as (data: unknown) => unknown;
      const written = serialize(answer);
      assert.ok(Buffer.isBuffer(written), `check ${check}: bytes`);
      assert.deepEqual(written, Buffer.from(JSON.stringify(answer), 'utf8'));
    }
  });

  it('refuses, when checking, a property the schema does not declare, naming the route and where', async () => {
    const app = appAnswering({ name: 'x', passwordHash: 'secret' }, true);
    const response = await app.inject({ method: 'GET', url: '/api/thing' });
    assert.equal(response.statusCode, 500);
    const [error] = response.json().errors;
    assert.equal(error.code, 'internal');
    assert.match(error.detail, /the 200 answer of GET \/api\/thing does not read as its schema says/);
    assert.match(error.detail, /\/passwordHash: the answer has a string, the schema writes nothing/);
    assert.doesNotMatch(response.body, /secret/);
    await app.close();
  });

  it('refuses, when checking, a value of another type than the schema says', async () => {
    const app = appAnswering({ name: 42, tags: [] }, true);
    const response = await app.inject({ method: 'GET', url: '/api/thing' });
    assert.equal(response.statusCode, 500);
    assert.match(response.json().errors[0].detail, /\/name: the answer has a number, the schema writes a string/);
    await app.close();
  });

  it('refuses, when checking, an answer the schema cannot write (a required property missing), saying so', async () => {
    const required = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const app = appAnswering({}, true, required);
    const response = await app.inject({ method: 'GET', url: '/api/thing' });
    assert.equal(response.statusCode, 500);
    assert.match(
      response.json().errors[0].detail,
      /GET \/api\/thing does not read as its schema says: it cannot be written: .*name/,
    );
    await app.close();
  });

  it('writes, without the check (production), what the route gives', async () => {
    const app = appAnswering({ name: 'x', extra: 1 }, false);
    const response = await app.inject({ method: 'GET', url: '/api/thing' });
    assert.deepEqual([response.statusCode, response.json()], [200, { name: 'x', extra: 1 }]);
    await app.close();
  });
});
