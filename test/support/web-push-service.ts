/**
 * A local Web Push service (RFC 8030) over HTTPS, for the push tests: it plays the browser too.
 * `subscribe()` makes a subscription as a browser would (a P-256 key pair and a 16-byte auth secret,
 * an endpoint on this server); each push it receives is checked as a real push service and browser
 * would: the VAPID Authorization (RFC 8292: an ES256 JWT for this origin, verified against `k`) and
 * the aes128gcm body, decrypted with the subscription's private key (RFC 8291). It answers 201, or
 * what a test asked for (`failNext`: 429/5xx; `forget`: 410 from then on).
 *
 * Its certificate (fixtures/push-service.*.pem, self-signed for localhost, 127.0.0.1 and ::1, valid
 * 100 years; made with `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes
 * -days 36500 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1`) is
 * trusted by the sender through its `ca` option (`pushServiceCa`).
 */
import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
export const pushServiceCa = fixture('push-service.cert.pem');

export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted payload, parsed as JSON. */
  payload: any;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  contentEncoding: string | null;
  /** The VAPID JWT's claims (signature verified) and the key it was verified with. */
  claims: { aud: string; exp: number; sub: string };
  vapidKey: string;
}

export interface PushServiceRequest {
  subscriptionId: string;
  status: number;
}

interface Browser {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  gone: boolean;
  failures: { status: number; retryAfter?: number }[];
}

export interface LocalPushService {
  origin: string;
  /** Every push accepted (201), in order. */
  received: ReceivedPush[];
  /** Every request and its answer, accepted or not. */
  requests: PushServiceRequest[];
  /** Pushes refused because the check failed (bad JWT, undecryptable body): always a test failure. */
  problems: string[];
  subscribe(host?: string): TestSubscription;
  /** The next pushes to this subscription answer these statuses, in order. */
  failNext(subscription: TestSubscription, ...failures: { status: number; retryAfter?: number }[]): void;
  /** The browser unsubscribed: 410 Gone from now on. */
  forget(subscription: TestSubscription): void;
  close(): Promise<void>;
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

function hmac(key: Buffer, ...data: Buffer[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of data) mac.update(part);
  return mac.digest();
}

/** RFC 8291 section 3 and RFC 8188: one aes128gcm record, decrypted with the browser's keys. */
export function decryptAes128gcm(body: Buffer, browser: { ecdh: ReturnType<typeof createECDH>; auth: Buffer }): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not an uncompressed P-256 key`);
  if (record.length > recordSize) throw new Error('more than one record');
  const browserPublic = browser.ecdh.getPublicKey();
  const shared = browser.ecdh.computeSecret(serverPublic);
  const prkKey = hmac(browser.auth, shared);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserPublic, serverPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the last record does not end with the delimiter 0x02');
  return padded.subarray(0, end);
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT signed ES256 by that key; answers its claims. */
export function verifyVapid(authorization: string | undefined): { claims: ReceivedPush['claims']; key: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`Authorization is not a vapid one: ${authorization}`);
  const [, jwt = '', key = ''] = match;
  const [header = '', claims = '', signature = ''] = jwt.split('.');
  if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') throw new Error('JWT is not ES256');
  const raw = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33, 65)) },
    format: 'jwk',
  });
  const signed = Buffer.from(`${header}.${claims}`);
  const valid = verify(
    'sha256',
    signed,
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) throw new Error('the VAPID JWT signature does not verify against k');
  return { claims: JSON.parse(Buffer.from(claims, 'base64url').toString()), key };
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const browsers = new Map<string, Browser>();
  const received: ReceivedPush[] = [];
  const requests: PushServiceRequest[] = [];
  const problems: string[] = [];
  let origin = '';

  const server: Server = createServer(
    { cert: pushServiceCa, key: fixture('push-service.key.pem') },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const id = /^\/push\/([0-9a-f-]+)$/.exec(request.url ?? '')?.[1] ?? '';
        const browser = browsers.get(id);
        const answer = (status: number, headers: Record<string, string> = {}) => {
          requests.push({ subscriptionId: id, status });
          response.writeHead(status, headers).end();
        };
        if (request.method !== 'POST' || browser === undefined) return answer(404);
        if (browser.gone) return answer(410);
        const failure = browser.failures.shift();
        if (failure) {
          return answer(
            failure.status,
            failure.retryAfter === undefined ? {} : { 'Retry-After': String(failure.retryAfter) },
          );
        }
        try {
          const { claims, key } = verifyVapid(request.headers.authorization);
          const payload = JSON.parse(decryptAes128gcm(Buffer.concat(chunks), browser).toString('utf8'));
          const header = (name: string) => {
            const value = request.headers[name];
            return typeof value === 'string' ? value : null;
          };
          received.push({
            subscriptionId: id,
            payload,
            ttl: Number(header('ttl')),
            urgency: header('urgency'),
            topic: header('topic'),
            contentEncoding: header('content-encoding'),
            claims,
            vapidKey: key,
          });
          answer(201, { Location: `${origin}/message/${randomUUID()}` });
        } catch (error) {
          problems.push(String(error));
          answer(400);
        }
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `https://localhost:${port}`;

  return {
    origin,
    received,
    requests,
    problems,
    subscribe(host = 'localhost') {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      browsers.set(id, { ecdh, auth, gone: false, failures: [] });
      return {
        id,
        endpoint: `https://${host}:${port}/push/${id}`,
        keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(auth) },
      };
    },
    failNext(subscription, ...failures) {
      browsers.get(subscription.id)?.failures.push(...failures);
    },
    forget(subscription) {
      const browser = browsers.get(subscription.id);
      if (browser) browser.gone = true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
