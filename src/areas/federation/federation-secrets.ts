/**
 * The keys the federation area encrypts with, each derived (HKDF-SHA256) from the federation secret
 * (FEDERATION_SECRET, else generated once in DATA_DIR/secrets/federation.key): one for the actors'
 * private keys, one for the queued messages (an outgoing delivery carries its sender's private key).
 * Changing the secret makes the stored private keys unreadable: operators keep it.
 */
import { hkdfSync } from 'node:crypto';
import { seal, unseal } from '../../platform/secrets/sealed-box.ts';

type Purpose = 'actor-private-keys' | 'queued-messages';

export class FederationSecrets {
  readonly #secret: () => string;
  readonly #derived = new Map<Purpose, Buffer>();

  /** `secret` is read on first use (building the app writes no key file). */
  constructor(secret: () => string) {
    this.#secret = secret;
  }

  seal(purpose: Purpose, plain: string): string {
    return seal(this.#key(purpose), plain);
  }

  unseal(purpose: Purpose, sealed: string): string {
    return unseal(this.#key(purpose), sealed);
  }

  #key(purpose: Purpose): Buffer {
    let key = this.#derived.get(purpose);
    if (key === undefined) {
      key = Buffer.from(hkdfSync('sha256', this.#secret(), 'tms-federation', purpose, 32));
      this.#derived.set(purpose, key);
    }
    return key;
  }
}
