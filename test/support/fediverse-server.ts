/**
 * A remote fediverse server for tests, on loopback: it serves actors made from fixtures as Mastodon
 * and Pixelfed emit them (test/support/fediverse/*.json, `{{origin}}`, `{{username}}` and
 * `{{publicKeyPem}}` filled in), each with an RSA key of its own, signs activities it sends with
 * HTTP Signatures (draft-cavage, as Mastodon does) and records what its inboxes receive.
 *
 *   const remote = await startFediverseServer();
 *   const ana = await remote.addActor('mastodon-actor', 'ana');
 *   const request = await remote.signedPost(ana, 'https://travel.example/ap/inbox', body);
 *   remote.received           // activities POSTed to its inboxes, parsed (and as they arrived)
 *   remote.fetched            // the paths others GET (actors, keys)
 *   await remote.close()
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRequest } from '@fedify/fedify';

export interface RemoteActor {
  username: string;
  id: string;
  keyId: string;
  privateKey: CryptoKey;
  document: Record<string, unknown>;
}

export interface ReceivedActivity {
  inbox: string;
  signature: string | null;
  activity: Record<string, unknown>;
  /** The request as it arrived (its headers, its body's text), to check its signature. */
  headers: Record<string, string>;
  body: string;
}

export interface FediverseServer {
  origin: string;
  received: ReceivedActivity[];
  fetched: string[];
  addActor(fixture: string, username: string): Promise<RemoteActor>;
  /** The actor's account deleted: its document answers 410 Gone from now on (as Mastodon's does). */
  removeActor(actor: RemoteActor): void;
  /** A fixture of test/support/fediverse with `{{name}}` replaced by `values` (and `{{origin}}`). */
  fixture(name: string, values: Record<string, string>): string;
  /** A POST of `body` (sent as these exact bytes) to `url`, signed by the actor's key. */
  signedPost(actor: RemoteActor, url: string, body: string): Promise<Request>;
  close(): Promise<void>;
}

const fixtureText = (name: string) => readFileSync(new URL(`./fediverse/${name}.json`, import.meta.url), 'utf8');

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}

async function publicKeyPem(key: CryptoKey): Promise<string> {
  const spki = Buffer.from(await crypto.subtle.exportKey('spki', key)).toString('base64');
  return `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)?.join('\n')}\n-----END PUBLIC KEY-----\n`;
}

export async function startFediverseServer(): Promise<FediverseServer> {
  const actors = new Map<string, RemoteActor>();
  const gone = new Set<string>();
  const received: ReceivedActivity[] = [];
  const fetched: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers))
          if (value !== undefined) headers[name] = String(value);
        received.push({
          inbox: path,
          signature: request.headers.signature?.toString() ?? request.headers['signature-input']?.toString() ?? null,
          activity: JSON.parse(body),
          headers,
          body,
        });
        response.writeHead(202).end();
      });
      return;
    }
    fetched.push(path);
    const username = path.replace(/^\/users\//, '');
    if (gone.has(username)) {
      response.writeHead(410, { 'content-type': 'application/activity+json' }).end();
      return;
    }
    const actor = actors.get(username);
    if (actor === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/activity+json' }).end(JSON.stringify(actor.document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    fetched,
    fixture: (name, values) => fill(fixtureText(name), { origin, ...values }),
    async addActor(fixture, username) {
      const pair = (await crypto.subtle.generateKey(
        { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
        true,
        ['sign', 'verify'],
      )) as CryptoKeyPair;
      const pem = JSON.stringify(await publicKeyPem(pair.publicKey)).slice(1, -1);
      const document = JSON.parse(fill(fixtureText(fixture), { origin, username, publicKeyPem: pem }));
      const actor: RemoteActor = {
        username,
        id: `${origin}/users/${username}`,
        keyId: `${origin}/users/${username}#main-key`,
        privateKey: pair.privateKey,
        document,
      };
      actors.set(username, actor);
      return actor;
    },
    removeActor(actor) {
      gone.add(actor.username);
    },
    signedPost(actor, url, body) {
      const request = new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' },
        body,
      });
      return signRequest(request, actor.privateKey, new URL(actor.keyId), { spec: 'draft-cavage-http-signatures-12' });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
