/**
 * A provider's signing keys (its JWKS), fetched on first use and kept for `maxAgeMs`. A token signed
 * with a key id the cached set lacks refetches the set at once (the provider rotated its keys), at most
 * once per `refreshCooldownMs` whatever the tokens, counted from the last attempt, failed or not: made-up
 * key ids cannot make us hammer the provider, even while it fails. Concurrent fetches share one request.
 */
import type { createLocalJWKSet, JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../platform/clock.ts';
import { IdentityProviderUnavailable } from './identity-provider.ts';
import { getJson } from './provider-http.ts';

type KeySet = ReturnType<typeof createLocalJWKSet>;

export class JwksCache {
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #maxAgeMs: number;
  readonly #refreshCooldownMs: number;
  #keys: KeySet | null = null;
  #fetchedAt = 0;
  /** When the set was last asked for, whatever came of it. */
  #attemptedAt = Number.NEGATIVE_INFINITY;
  #inFlight: Promise<KeySet> | null = null;

  constructor(options: {
    url: string;
    timeoutMs: number;
    clock: Clock;
    maxAgeMs?: number;
    refreshCooldownMs?: number;
  }) {
    this.#url = options.url;
    this.#timeoutMs = options.timeoutMs;
    this.#clock = options.clock;
    this.#maxAgeMs = options.maxAgeMs ?? 15 * 60_000;
    this.#refreshCooldownMs = options.refreshCooldownMs ?? 5_000;
  }

  /** The key resolver for jose's jwtVerify. */
  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    const now = this.#clock.now().getTime();
    const held = this.#keys;
    const keys = held !== null && now - this.#fetchedAt < this.#maxAgeMs ? held : await this.#fetch();
    try {
      return await keys(header, token);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      // Another request may have fetched a newer set meanwhile.
      if (this.#keys !== null && this.#keys !== keys) return this.#keys(header, token);
      // A fetch under way (started by another token): its keys answer this one too.
      if (this.#inFlight !== null) return (await this.#inFlight)(header, token);
      if (this.#clock.now().getTime() - this.#attemptedAt < this.#refreshCooldownMs) throw error;
      return (await this.#fetch())(header, token);
    }
  };

  #fetch(): Promise<KeySet> {
    this.#inFlight ??= this.#load().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  async #load(): Promise<KeySet> {
    this.#attemptedAt = this.#clock.now().getTime();
    const { status, body } = await getJson(this.#url, this.#timeoutMs);
    if (status !== 200) throw new IdentityProviderUnavailable(`JWKS ${this.#url} answered ${status}`);
    const { createLocalJWKSet } = await import('jose');
    let keys: KeySet;
    try {
      keys = createLocalJWKSet(body as JSONWebKeySet);
    } catch (error) {
      throw new IdentityProviderUnavailable(`JWKS ${this.#url} is not a key set`, { cause: error });
    }
    this.#keys = keys;
    this.#fetchedAt = this.#clock.now().getTime();
    return keys;
  }
}
