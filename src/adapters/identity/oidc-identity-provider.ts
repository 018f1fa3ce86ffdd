/**
 * Google and Apple: the client sends the ID token (a JWT) its SDK got, and the nonce it used if any.
 * The token is verified with jose against the provider's JWKS (jwks-cache.ts): signature by a key of
 * the set, `alg` RS256 or ES256 only (never `none`, never HMAC), `iss` one of the configured issuers,
 * `aud` one of our client ids, `exp` not passed (30 s of leeway) on the injected clock, `sub` present,
 * and the nonce: a token that carries one needs it, and a nonce given must match.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { Clock } from '../../platform/clock.ts';
import {
  emailOf,
  type IdentityProvider,
  IdentityProviderUnavailable,
  IdentityTokenRejected,
  type ProviderCredentials,
  type VerifiedIdentity,
} from './identity-provider.ts';
import { JwksCache } from './jwks-cache.ts';

export const allowedAlgorithms = ['RS256', 'ES256'];

export interface OidcProviderOptions {
  name: 'google' | 'apple';
  clientIds: string[];
  issuers: string[];
  jwksUrl: string;
  timeoutMs: number;
  clock: Clock;
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** Apple's `email_verified` is sometimes the string "true". */
const isTrue = (value: unknown) => value === true || value === 'true';

export class OidcIdentityProvider implements IdentityProvider {
  readonly name: 'google' | 'apple';
  readonly #options: OidcProviderOptions;
  readonly #jwks: JwksCache;

  constructor(options: OidcProviderOptions) {
    this.name = options.name;
    this.#options = options;
    this.#jwks = new JwksCache({ url: options.jwksUrl, timeoutMs: options.timeoutMs, clock: options.clock });
  }

  async verify(credentials: ProviderCredentials): Promise<VerifiedIdentity> {
    const { idToken, nonce } = credentials;
    if (idToken === undefined) throw new IdentityTokenRejected('no idToken');
    // jose loaded at the first sign-in with a provider, not at start-up.
    const { errors, jwtVerify } = await import('jose');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.#jwks.getKey, {
        algorithms: allowedAlgorithms,
        issuer: this.#options.issuers,
        audience: this.#options.clientIds,
        currentDate: this.#options.clock.now(),
        clockTolerance: 30,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      if (error instanceof IdentityProviderUnavailable) throw error;
      if (error instanceof errors.JOSEError) throw new IdentityTokenRejected(`${error.code}: ${error.message}`);
      // Anything else jose meets in a malformed token (bad base64, JSON) is the token's fault too.
      if (error instanceof TypeError || error instanceof SyntaxError) throw new IdentityTokenRejected(error.message);
      throw error;
    }
    this.#checkNonce(payload.nonce, nonce);
    const email = emailOf(payload.email);
    return {
      provider: this.name,
      subject: String(payload.sub),
      email,
      emailVerified: email !== null && isTrue(payload.email_verified),
    };
  }

  /** Apple's iOS SDK puts the SHA-256 (hex) of the client's nonce in the token: either form matches. */
  #checkNonce(claimed: unknown, given: string | undefined): void {
    if (claimed === undefined && given === undefined) return;
    if (typeof claimed !== 'string') throw new IdentityTokenRejected('nonce given, token has none');
    if (given === undefined) throw new IdentityTokenRejected('token has a nonce, none given');
    const matches = sameText(claimed, given) || (this.name === 'apple' && sameText(claimed, sha256Hex(given)));
    if (!matches) throw new IdentityTokenRejected('nonce mismatch');
  }
}
