/**
 * A handler that sends its answer itself (a web page, a download, an event stream) and returns the
 * reply: answered once, and nothing logged about it, also when the client leaves a stream before its
 * end. A reply is a thenable, so the handler's promise settles with undefined once the answer or the
 * client has gone; route.ts must not send again (Fastify then logs "Reply was already sent" with its
 * stack at every such answer).
 */
import assert from 'node:assert/strict';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import pino from 'pino';
import { Type } from 'typebox';
import { registerRoutes, route } from './route.ts';
import type { App } from './types.ts';

let endlessClosed = () => {};

const routes = [
  route({
    method: 'GET',
    path: '/page',
    auth: 'none',
    summary: 'Sends a page itself',
    success: { status: 200, mediaType: 'text/html', description: 'The page' },
    handler: async ({ reply }) => reply.type('text/html; charset=utf-8').send('<p>a page</p>'),
  }),
  route({
    method: 'GET',
    path: '/download',
    auth: 'none',
    summary: 'Streams a body itself',
    success: { status: 200, mediaType: 'text/plain', description: 'The lines' },
    handler: async ({ reply }) =>
      reply.type('text/plain').send(Readable.from(Array.from({ length: 200 }, (_, n) => `line ${n}\n`))),
  }),
  route({
    method: 'GET',
    path: '/endless',
    auth: 'none',
    summary: 'Streams until its client leaves, as the event stream does',
    success: { status: 200, mediaType: 'text/event-stream', description: 'Events' },
    handler: async ({ reply }) => {
      const events = new Readable({ read() {} });
      events.push(': open\n\n');
      reply.raw.on('close', () => {
        events.destroy();
        endlessClosed();
      });
      return reply.type('text/event-stream').send(events);
    },
  }),
  route({
    method: 'GET',
    path: '/returned',
    auth: 'none',
    summary: 'Returns its document',
    success: { status: 200, schema: Type.Object({ ok: Type.Boolean() }) },
    handler: async () => ({ ok: true }),
  }),
];

describe('a handler that sends its own answer', () => {
  let app: App;
  const lines: Array<{ level: number; msg?: string }> = [];
  before(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line));
        done();
      },
    });
    app = Fastify({ loggerInstance: pino({ level: 'info' }, sink) }) as unknown as App;
    app.decorate('publicUrl', 'https://example.test');
    registerRoutes(app, 'probe', routes);
    await app.ready();
  });
  after(() => app.close());

  it('is answered once, with nothing logged at warn or above', async () => {
    const page = await app.inject('/page');
    assert.equal(page.statusCode, 200);
    assert.equal(page.body, '<p>a page</p>');
    const download = await app.inject('/download');
    assert.equal(download.statusCode, 200);
    assert.equal(download.body.split('\n').length, 201);
    assert.equal(download.body.slice(0, 14), 'line 0\nline 1\n');
    const returned = await app.inject('/returned');
    assert.deepEqual(returned.json(), { ok: true });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      lines.filter((line) => line.level >= 40),
      [],
    );
  });

  it('is not sent again when its client leaves a stream before the end', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const closed = new Promise<void>((resolve) => {
      endlessClosed = resolve;
    });
    await new Promise<void>((resolve, reject) => {
      const request = get({ host: '127.0.0.1', port, path: '/endless' }, (response) => {
        assert.equal(response.statusCode, 200);
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => (error.message.includes('socket hang up') ? resolve() : reject(error)));
    });
    await closed;
    // The handler's promise settles after the close; let route.ts run its end.
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      lines.filter((line) => line.level >= 40),
      [],
    );
  });
});
