/**
 * A local OpenID Connect provider for tests, on loopback: a real JWKS endpoint and ID tokens signed
 * in the test with its RS256 and ES256 keys.
 *
 *   const provider = await startOidcProvider({ issuer: 'https://accounts.google.test' });
 *   // point the app at it: GOOGLE_ISSUER=provider.issuer, GOOGLE_JWKS_URL=provider.jwksUrl
 *   await provider.sign({ sub: '123', aud: 'client', email: 'a@example.com' }, { alg: 'ES256', now })
 *   await provider.rotate()        // new RS256 and ES256 keys (new kids); the old ones leave the JWKS
 *   provider.mode = 'hang'         // the JWKS endpoint never answers ('error': 500, 'ok': normal)
 *   provider.jwksRequests          // how many times the JWKS was fetched
 *   await provider.close()
 *
 * `sign` fills `iss`, `iat` and `exp` (an hour) from `now` unless given; `key: 'foreign'` signs with a
 * key that was never published (its kid included), `kid` overrides the header's key id.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

export type SigningAlg = 'RS256' | 'ES256';

interface SigningKey {
  kid: string;
  alg: SigningAlg;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface OidcProvider {
  issuer: string;
  url: string;
  jwksUrl: string;
  mode: 'ok' | 'hang' | 'error';
  jwksRequests: number;
  sign(
    claims: JWTPayload,
    options?: { alg?: SigningAlg; now?: Date; key?: 'current' | 'foreign'; kid?: string },
  ): Promise<string>;
  /** A token with `alg: none` and no signature. */
  unsigned(claims: JWTPayload): string;
  rotate(): Promise<void>;
  close(): Promise<void>;
}

async function newKey(alg: SigningAlg): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg.toLowerCase()}-${randomUUID()}`;
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

const keyPair = async () => ({ RS256: await newKey('RS256'), ES256: await newKey('ES256') });

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function startOidcProvider(options: { issuer?: string } = {}): Promise<OidcProvider> {
  let current = await keyPair();
  const foreign = await keyPair();
  const hanging = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    if (request.url !== '/jwks') {
      response.writeHead(404).end();
      return;
    }
    provider.jwksRequests += 1;
    if (provider.mode === 'hang') {
      hanging.add(response);
      return;
    }
    if (provider.mode === 'error') {
      response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal"}');
      return;
    }
    const keys = [current.RS256.publicJwk, current.ES256.publicJwk];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = options.issuer ?? url;

  const provider: OidcProvider = {
    issuer,
    url,
    jwksUrl: `${url}/jwks`,
    mode: 'ok',
    jwksRequests: 0,
    async sign(claims, { alg = 'RS256', now = new Date(), key = 'current', kid } = {}) {
      const signing = (key === 'current' ? current : foreign)[alg];
      const seconds = Math.floor(now.getTime() / 1000);
      return new SignJWT({ iss: issuer, iat: seconds, exp: seconds + 3600, ...claims })
        .setProtectedHeader({ alg, kid: kid ?? signing.kid, typ: 'JWT' })
        .sign(signing.privateKey);
    },
    unsigned(claims) {
      return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ iss: issuer, ...claims })}.`;
    },
    async rotate() {
      current = await keyPair();
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return provider;
}

/** The kid of the current key of an algorithm, for tests that sign under a published kid with another key. */
export const publishedKid = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
