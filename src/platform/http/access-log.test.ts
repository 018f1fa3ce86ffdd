/**
 * The access log: one line per answered request at `info`, naming the route's pattern and never the
 * path or query that may hold a secret; nothing at `warn`.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { createTestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';

/** An app whose logger writes its lines into an array, at `level`. */
async function appLoggingAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  const t = await createTestApp({ logger: pino({ level }, sink) });
  return { t, lines, requestLines: () => lines.filter((line) => line.event === 'http.request') };
}

describe('the access log', () => {
  it('logs each answered request once, with its method, route pattern, status and time', async () => {
    const { t, lines, requestLines } = await appLoggingAt('info');
    try {
      const user = await createUser(t);
      lines.length = 0;
      await t.request({ method: 'GET', url: '/api/ping' });
      await t.request({ method: 'HEAD', url: '/api/ping' });
      await t.request({ method: 'GET', url: `/api/users/${user.id}/media?limit=5`, token: user.token });
      await t.request({ method: 'GET', url: '/api/users/me/notifications' });
      await t.request({ method: 'GET', url: '/how-it-works', headers: { accept: 'text/html' } });
      await t.request({ method: 'GET', url: '/s/a-share-token-that-is-secret?code=123456' });
      await t.request({ method: 'GET', url: '/no/such/path?token=secret' });
      const logged = requestLines();
      assert.deepEqual(
        logged.map(({ method, route, status }) => ({ method, route, status })),
        [
          { method: 'GET', route: '/api/ping', status: 200 },
          { method: 'HEAD', route: '/api/ping', status: 200 },
          { method: 'GET', route: '/api/users/:userId/media', status: 200 },
          { method: 'GET', route: '/api/users/me/notifications', status: 401 },
          { method: 'GET', route: '/how-it-works', status: 200 },
          { method: 'GET', route: '/s/:token', status: 404 },
          { method: 'GET', route: null, status: 404 },
        ],
      );
      for (const line of logged) {
        assert.equal(line.level, 30, 'info');
        assert.equal(typeof line.ms, 'number');
        assert.ok((line.ms as number) >= 0);
        assert.match(String(line.reqId), /^req-/);
      }
      // Pages send their answers themselves: nothing else is logged for them (route-sent.test.ts).
      assert.deepEqual(
        lines.filter((line) => (line.level as number) >= 40),
        [],
      );
      const text = JSON.stringify(lines);
      for (const secret of ['a-share-token-that-is-secret', '123456', 'token=secret', 'limit=5', user.id])
        assert.ok(!text.includes(secret), `${secret} is not logged`);
      assert.ok(
        !lines.some((line) => line.msg === 'incoming request' || line.msg === 'request completed'),
        "Fastify's own two lines are off",
      );
    } finally {
      await t.close();
    }
  });

  it('logs no request at warn', async () => {
    const { t, requestLines } = await appLoggingAt('warn');
    try {
      await t.request({ method: 'GET', url: '/api/ping' });
      assert.deepEqual(requestLines(), []);
    } finally {
      await t.close();
    }
  });
});
