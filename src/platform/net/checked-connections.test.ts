/**
 * Connections made inside `CheckedConnections.run` go to the address the check passed, in the one DNS
 * answer used to connect: a resolver that answers a public address once and loopback afterwards
 * (DNS rebinding) never gets a request to loopback. The server here listens on loopback.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { pushServiceCa } from '../../../test/support/web-push-service.ts';
import { AddressRefused, CheckedConnections } from './checked-connections.ts';
import type { AddressLookup } from './public-address.ts';

const loopback = [{ address: '127.0.0.1', family: 4 as const }];
const publicAnswer = [{ address: '93.184.215.14', family: 4 as const }];

/** Public for the first question, loopback for every later one. */
function rebinding(): { lookup: AddressLookup; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    lookup: async (host) => {
      asked.push(host);
      return asked.length === 1 ? publicAnswer : loopback;
    },
  };
}

const causeOf = (error: unknown) => (error as { cause?: unknown }).cause;

describe('checked connections', () => {
  let server: Server;
  let port: number;
  const received: string[] = [];

  before(async () => {
    server = createServer((request, response) => {
      received.push(`${request.headers.host}${request.url}`);
      request.resume();
      response.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('connects through its own resolver, to the address it answered', async () => {
    const connections = new CheckedConnections({ allowPrivate: true, lookup: async () => loopback });
    const body = await connections.run(async () => (await fetch(`http://inbox.example:${port}/a`)).text());
    assert.equal(body, 'reached');
    assert.deepEqual(received.splice(0), [`inbox.example:${port}/a`]);
    await connections.close();
  });

  it('never reaches loopback when the host answered a public address for the check (DNS rebinding)', async () => {
    const { lookup, asked } = rebinding();
    const connections = new CheckedConnections({ allowPrivate: false, lookup });
    assert.deepEqual(await connections.addressesOf('rebind.example'), publicAnswer, 'the check passed');
    const failure = await connections.run(() => fetch(`http://rebind.example:${port}/b`)).catch((error) => error);
    assert.ok(causeOf(failure) instanceof AddressRefused, String(causeOf(failure)));
    assert.deepEqual(asked, ['rebind.example', 'rebind.example'], 'the connection resolved once, checking its answer');
    assert.deepEqual(received, []);
    await connections.close();
  });

  it('refuses private address literals and names, and leaves fetch outside run alone', async () => {
    const connections = new CheckedConnections({ allowPrivate: false, lookup: async () => loopback });
    for (const url of [`http://127.0.0.1:${port}/c`, `http://[::1]:${port}/c`, `http://localhost:${port}/c`]) {
      const failure = await connections.run(() => fetch(url)).catch((error) => error);
      assert.ok(causeOf(failure) instanceof AddressRefused, `${url}: ${String(causeOf(failure))}`);
    }
    assert.deepEqual(received, []);
    assert.equal(await (await fetch(`http://127.0.0.1:${port}/d`)).text(), 'reached', 'outside run: Node as usual');
    assert.deepEqual(received.splice(0), [`127.0.0.1:${port}/d`]);
    await connections.close();
  });

  it('keeps TLS checked against the host name it connects to by a pinned address', async () => {
    // The local push service's certificate: self-signed for localhost, 127.0.0.1 and ::1.
    const key = readFileSync(new URL('../../../test/support/fixtures/push-service.key.pem', import.meta.url));
    const tlsServer = createTlsServer({ cert: pushServiceCa, key }, (request, response) => {
      request.resume();
      response.end('secure');
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    const tlsPort = (tlsServer.address() as AddressInfo).port;
    const connections = new CheckedConnections({ allowPrivate: true, lookup: async () => loopback, ca: pushServiceCa });
    try {
      const body = await connections.run(async () => (await fetch(`https://localhost:${tlsPort}/`)).text());
      assert.equal(body, 'secure', 'the certificate names localhost');
      const failure = await connections.run(() => fetch(`https://inbox.example:${tlsPort}/`)).catch((error) => error);
      assert.match(String(causeOf(failure)), /inbox\.example|altnames|certificate/i, 'not the name it was asked for');
    } finally {
      await connections.close();
      await new Promise((resolve) => tlsServer.close(resolve));
    }
  });
});
