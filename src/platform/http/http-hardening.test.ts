/**
 * The HTTP server's own edges, over real sockets where Node answers before Fastify: slow requests are
 * cut off (408), malformed and oversized requests get JSON:API documents with nosniff, HTML answers
 * cannot be framed, and CORS answers only the configured origins.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw bytes and reads until the server closes the connection (10 s at most). */
function exchange(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open'));
    }, 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer still closes
    socket.on('close', () => {
      clearTimeout(guard);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.write(request);
  });
}

function assertJsonApiError(answer: RawAnswer, status: number, code: string) {
  assert.equal(answer.status, status, answer.body);
  assert.equal(answer.headers['content-type'], 'application/vnd.api+json');
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  const document = JSON.parse(answer.body);
  assert.equal(document.errors.length, 1);
  assert.equal(document.errors[0].status, String(status));
  assert.equal(document.errors[0].code, code);
  assert.ok(document.errors[0].title);
}

describe('requests the HTTP server refuses itself', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp({ env: { REQUEST_TIMEOUT_SECONDS: '1' } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it('cuts off a request whose body arrives too slowly: 408 and the connection closed', async () => {
    // 100 bytes announced, one sent, then nothing: the connection is answered and closed, not kept.
    const answer = await exchange(
      port,
      'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    assertJsonApiError(answer, 408, 'requestTimeout');
    assert.equal(answer.headers.connection, 'close');
  });

  it('cuts off a request whose headers never end', async () => {
    const answer = await exchange(port, 'GET /api/ping HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1');
    assertJsonApiError(answer, 408, 'requestTimeout');
  });

  it('answers headers over 16 KB with a JSON:API 431', async () => {
    const answer = await exchange(
      port,
      `GET /api/ping HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assertJsonApiError(answer, 431, 'headersTooLarge');
  });

  it('answers a malformed request line with a JSON:API 400', async () => {
    const answer = await exchange(port, 'THIS IS NOT HTTP\r\n\r\n');
    assertJsonApiError(answer, 400, 'badRequest');
  });

  it('still serves a request that arrives in time on the same server', async () => {
    const answer = await exchange(port, 'GET /api/ping HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    assert.equal(answer.status, 200);
  });
});

describe('security headers', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  // Error pages drawn in the web layout carry its fuller policy (a nonce CSP, same-origin referrers).
  const assertNotFramable = (headers: Record<string, unknown>) => {
    assert.match(String(headers['content-security-policy']), /(^|; )frame-ancestors 'none'(;|$)/);
    assert.equal(headers['x-frame-options'], 'DENY');
    assert.ok(['no-referrer', 'same-origin'].includes(String(headers['referrer-policy'])));
    assert.equal(headers['x-content-type-options'], 'nosniff');
  };

  it('keeps the API reference page from being framed', async () => {
    let res = await t.request({ method: 'GET', url: '/api/docs', headers: { accept: 'text/html' } });
    for (let hops = 0; res.statusCode >= 300 && res.statusCode < 400 && hops < 3; hops++) {
      res = await t.request({ method: 'GET', url: String(res.headers.location), headers: { accept: 'text/html' } });
    }
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assertNotFramable(res.headers);
  });

  it('keeps HTML error pages from being framed, those of malformed URLs included', async () => {
    const missing = await t.request({ method: 'GET', url: '/nothing-here', headers: { accept: 'text/html' } });
    assert.equal(missing.statusCode, 404);
    assert.match(String(missing.headers['content-type']), /^text\/html/);
    assertNotFramable(missing.headers);
    const malformed = await t.request({ method: 'GET', url: '/%E0%A4%A', headers: { accept: 'text/html' } });
    assert.equal(malformed.statusCode, 400);
    assert.match(String(malformed.headers['content-type']), /^text\/html/);
    assertNotFramable(malformed.headers);
  });

  it('sends nosniff and the referrer policy on JSON answers too', async () => {
    const res = await t.request({ method: 'GET', url: '/api/ping' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
  });
});

describe('CORS', () => {
  const allowed = 'https://app.example.test';
  const preflight = (origin: string) => ({
    method: 'OPTIONS' as const,
    url: '/api/auth/login',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });

  describe('off by default', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp();
    });
    after(() => t.close());

    it('answers no origin with CORS headers, and no preflight', async () => {
      const simple = await t.request({ method: 'GET', url: '/api/ping', headers: { origin: allowed } });
      assert.equal(simple.statusCode, 200);
      assert.equal(simple.headers['access-control-allow-origin'], undefined);
      const res = await t.request(preflight(allowed));
      assert.equal(res.statusCode, 404);
      assert.equal(res.headers['access-control-allow-origin'], undefined);
      assert.equal(res.headers['access-control-allow-methods'], undefined);
    });
  });

  describe('with CORS_ORIGINS', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ env: { CORS_ORIGINS: `${allowed}, https://admin.example.test` } });
    });
    after(() => t.close());

    it('answers a preflight from a listed origin', async () => {
      const res = await t.request(preflight(allowed));
      assert.equal(res.statusCode, 204);
      assert.equal(res.headers['access-control-allow-origin'], allowed);
      assert.match(String(res.headers['access-control-allow-methods']), /\bPOST\b/);
      assert.match(String(res.headers['access-control-allow-headers']), /Content-Type/i);
      assert.match(String(res.headers['access-control-allow-headers']), /Authorization/i);
      assert.equal(res.headers['access-control-max-age'], '600');
      assert.equal(res.headers['access-control-allow-credentials'], undefined, 'tokens, never cookies');
      assert.match(String(res.headers.vary), /Origin/);
    });

    it('lets a listed origin read answers, refusals included, and their headers', async () => {
      const ok = await t.request({ method: 'GET', url: '/api/ping', headers: { origin: allowed } });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.headers['access-control-allow-origin'], allowed);
      assert.match(String(ok.headers['access-control-expose-headers']), /Retry-After/);
      assert.match(String(ok.headers['access-control-expose-headers']), /X-RateLimit-Remaining/);
      const refused = await t.request({ method: 'GET', url: '/api/auth/me', headers: { origin: allowed } });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.headers['access-control-allow-origin'], allowed);
      const user = await createUser(t);
      const me = await t.request({
        method: 'GET',
        url: '/api/auth/me',
        token: user.token,
        headers: { origin: allowed },
      });
      assert.equal(me.statusCode, 200);
      assert.equal(me.headers['access-control-allow-origin'], allowed);
    });

    it('gives other origins no CORS header, and no preflight', async () => {
      const other = 'https://evil.example.test';
      const simple = await t.request({ method: 'GET', url: '/api/ping', headers: { origin: other } });
      assert.equal(simple.statusCode, 200);
      assert.equal(simple.headers['access-control-allow-origin'], undefined);
      const res = await t.request(preflight(other));
      assert.equal(res.statusCode, 404);
      assert.equal(res.headers['access-control-allow-origin'], undefined);
      assert.equal(res.headers['access-control-allow-methods'], undefined);
      // A listed origin's prefix or a different scheme is another origin.
      const lookalike = await t.request(preflight('https://app.example.test.evil.test'));
      assert.equal(lookalike.headers['access-control-allow-origin'], undefined);
      const http = await t.request(preflight('http://app.example.test'));
      assert.equal(http.headers['access-control-allow-origin'], undefined);
    });
  });
});
