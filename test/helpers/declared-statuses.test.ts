/**
 * The declared-answer watcher and the route declaration it holds answers to: a route answers what its
 * success declares (no body when it declares none, whatever the handler returns), and the watcher
 * names every answer whose status, body or media type its document does not describe.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { buildApp } from '../../src/app.ts';
import { alsoAnswer, redirectTo } from '../../src/platform/http/answers.ts';
import { AppError } from '../../src/platform/http/error-catalogue.ts';
import { DocumentSchema } from '../../src/platform/http/jsonapi.ts';
import { registerRoutes, route, type Success } from '../../src/platform/http/route.ts';
import type { App } from '../../src/platform/http/types.ts';
import { createTestApp, type TestApp } from './app.ts';
import { watchStatuses } from './declared-statuses.ts';

const TextDocument = DocumentSchema(Type.String());

/** A GET route answering `send(reply)`, or 404 notFound with `?missing`. */
const probe = (path: string, success: Success, send: (reply: FastifyReply) => unknown) =>
  route({
    method: 'GET',
    path,
    auth: 'none',
    summary: path,
    query: { missing: Type.Optional(Type.String()) },
    errors: ['notFound'],
    success,
    handler: async ({ query, reply }) => {
      if (query.missing !== undefined) throw new AppError('notFound');
      return send(reply);
    },
  });

describe('declared answers', () => {
  let t: TestApp;
  let app: App;
  let watcher: ReturnType<typeof watchStatuses>;
  before(async () => {
    t = await createTestApp();
    ({ app } = await buildApp(t.deps, { logger: false }));
    registerRoutes(app, 'system', [
      probe('/api/probe/document', { status: 200, schema: TextDocument }, () => ({ data: 'a document' })),
      probe('/api/probe/accepted', { status: 202 }, () => ({ data: 'dropped: the route declares no body' })),
      probe('/api/probe/body-where-none', { status: 202 }, (reply) => reply.status(202).send({ data: 'a body' })),
      probe('/api/probe/none-where-document', { status: 200, schema: TextDocument }, (reply) => reply.send()),
      probe('/probe/page', { status: 200, mediaType: 'text/html' }, (reply) => reply.type('text/html').send('<p>')),
      probe('/probe/text-where-page', { status: 200, mediaType: 'text/html' }, (reply) =>
        reply.type('text/plain').send('text'),
      ),
      probe('/probe/form', { status: 202, mediaType: 'text/html', emptyForJson: true }, (reply) =>
        reply.status(202).send(),
      ),
      probe('/api/probe/also', { status: 200, schema: TextDocument, also: { 201: 'created' } }, () =>
        alsoAnswer(201, { data: 'created' }),
      ),
      probe('/probe/redirect', { status: 302 }, () => redirectTo('/elsewhere')),
      probe('/api/probe/undeclared-answer', { status: 200, schema: TextDocument }, () => alsoAnswer(201, { data: '' })),
      probe('/api/probe/teapot', { status: 200, schema: TextDocument }, (reply) =>
        reply.status(418).type('application/json').send({ data: 'tea' }),
      ),
    ]);
    watcher = watchStatuses(app);
    await app.ready();
  });
  after(async () => {
    await app.close();
    await t.close();
  });

  const get = (url: string, accept = '*/*') => app.inject({ method: 'GET', url, headers: { accept } });

  it('sends no body where the route declares none, whatever its handler returns', async () => {
    const accepted = await get('/api/probe/accepted');
    assert.equal(accepted.statusCode, 202);
    assert.equal(accepted.body, '');
    const document = await get('/api/probe/document');
    assert.equal(document.headers['content-type'], 'application/vnd.api+json');
    assert.deepEqual(document.json(), { data: 'a document' });
  });

  it('sends the answers a handler returns with the statuses its route declares, and refuses others (500)', async () => {
    const also = await get('/api/probe/also');
    assert.equal(also.statusCode, 201);
    assert.deepEqual(also.json(), { data: 'created' });
    const redirect = await get('/probe/redirect');
    assert.equal(redirect.statusCode, 302);
    assert.equal(redirect.headers.location, '/elsewhere');
    assert.equal(redirect.body, '');
    const undeclared = await get('/api/probe/undeclared-answer');
    assert.equal(undeclared.statusCode, 500);
    assert.equal(undeclared.json().errors[0].code, 'internal');
  });

  it('names each answer its document does not describe, and only those', async () => {
    await get('/api/probe/document');
    await get('/api/probe/document?missing');
    await get('/api/probe/accepted');
    await get('/probe/page');
    await get('/probe/page?missing', 'text/html');
    await get('/probe/page?missing', 'application/json');
    await get('/probe/form');
    for (const url of ['/api/probe/body-where-none', '/api/probe/none-where-document', '/probe/text-where-page'])
      await get(url);
    await get('/api/probe/teapot');
    assert.deepEqual(watcher.undeclared().sort(), [
      'GET /api/probe/body-where-none answered 202 with a body of application/vnd.api+json, where its declaration documents no body',
      'GET /api/probe/none-where-document answered 200 with no body, where its declaration documents application/vnd.api+json',
      'GET /api/probe/teapot answered 418, which its declaration does not document',
      'GET /probe/text-where-page answered 200 with a body of text/plain, where its declaration documents text/html',
    ]);
  });
});
