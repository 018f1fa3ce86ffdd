/**
 * A remote fediverse server for tests, on loopback: it serves actors made from fixtures as Mastodon
 * and Pixelfed emit them (test/support/fediverse/*.json, `{{origin}}`, `{{username}}` and
 * `{{publicKeyPem}}` filled in), each with an RSA key of its own, signs activities it sends with
 * HTTP Signatures (draft-cavage, as Mastodon does) and records what its inboxes receive.
 *
 *   const remote = await startFediverseServer();
 *   const ana = await remote.addActor('mastodon-actor', 'ana');
 *   const request = await remote.signedPost(ana, 'https://travel.example/ap/inbox', body);
 *   const accept = await remote.answerFollow(ana, remote.received[0], 'Accept', followerInbox);
 *   remote.received           // activities POSTed to its inboxes, parsed
 *   remote.fetched            // the paths others GET (actors, keys)
 *   GET /.well-known/webfinger?resource=acct:ana@<host>   // the actor's JRD, as Mastodon serves it
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
  /** The request as it arrived (headers, body bytes as text), to check its signature with. */
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
  /**
   * The actor's answer to a Follow its inbox received, as Mastodon sends it (`Accept` or `Reject`
   * embedding the Follow: fixtures fedfollow-mastodon-accept / -reject), signed, for the follower's
   * inbox at `inbox`.
   */
  answerFollow(
    actor: RemoteActor,
    follow: ReceivedActivity,
    answer: 'Accept' | 'Reject',
    inbox: string,
  ): Promise<Request>;
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

/**
 * `host`: the loopback address to listen on (default 127.0.0.1); another one of 127.0.0.0/8
 * (`127.0.0.2`) makes a server of another domain, for tests of domain blocks.
 */
export async function startFediverseServer(options: { host?: string } = {}): Promise<FediverseServer> {
  const host = options.host ?? '127.0.0.1';
  const actors = new Map<string, RemoteActor>();
  const gone = new Set<string>();
  const received: ReceivedActivity[] = [];
  let answers = 0;
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
    if (path === '/.well-known/webfinger') {
      const jrd = webFingerOf(new URL(request.url ?? '/', origin).searchParams.get('resource'));
      if (jrd === null) response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'application/jrd+json' }).end(JSON.stringify(jrd));
      return;
    }
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
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  /** WebFinger's answer for `acct:name@host` of a known actor (gone or unknown: null, a 404). */
  const webFingerOf = (resource: string | null) => {
    const match = /^acct:([^@]+)@(.+)$/.exec(resource ?? '');
    const actor = match?.[1] === undefined ? undefined : actors.get(match[1]);
    if (actor === undefined || match?.[2] !== new URL(origin).host || gone.has(actor.username)) return null;
    return {
      subject: `acct:${actor.username}@${match[2]}`,
      aliases: [actor.id],
      links: [
        { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: `${origin}/@${actor.username}` },
        { rel: 'self', type: 'application/activity+json', href: actor.id },
      ],
    };
  };

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
    answerFollow(this: FediverseServer, actor, follow, answer, inbox) {
      answers += 1;
      const fixture = answer === 'Accept' ? 'fedfollow-mastodon-accept' : 'fedfollow-mastodon-reject';
      const body = fill(fixtureText(fixture), {
        origin,
        username: actor.username,
        answerNumber: String(answers),
        followId: String(follow.activity.id),
        followActor: String(follow.activity.actor),
      });
      return this.signedPost(actor, inbox, body);
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
