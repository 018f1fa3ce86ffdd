/**
 * The keys the federation area encrypts with, each derived (HKDF-SHA256) from the federation secret
 * (FEDERATION_SECRET, else generated once in DATA_DIR/secrets/federation.key): one for the actors'
 * private keys, one for the queued messages (an outgoing delivery carries its sender's private key).
 * Changing the secret makes the stored private keys unreadable: operators keep it.
 */
import { DerivedKeys } from '../../platform/secrets/derived-keys.ts';
import { seal, unseal } from '../../platform/secrets/sealed-box.ts';

type Purpose = 'actor-private-keys' | 'queued-messages';

export class FederationSecrets {
  readonly #keys: DerivedKeys<Purpose>;

  /** `secret` is read on first use (building the app writes no key file). */
  constructor(secret: () => string) {
    this.#keys = new DerivedKeys(secret, 'tms-federation');
  }

  seal(purpose: Purpose, plain: string): string {
    return seal(this.#keys.key(purpose), plain);
  }

  unseal(purpose: Purpose, sealed: string): string {
    return unseal(this.#keys.key(purpose), sealed);
  }
}
