/**
 * Keys of 32 bytes derived (HKDF-SHA256) from one server secret, one per purpose, so no key serves
 * two uses and the secret itself never encrypts or signs anything. The secret is read at the first
 * derivation (building the app writes no key file).
 */
import { hkdfSync } from 'node:crypto';

export class DerivedKeys<Purpose extends string> {
  readonly #secret: () => string;
  readonly #salt: string;
  readonly #derived = new Map<Purpose, Buffer>();

  /** `salt` names the family of keys (`tms-two-factor`, `tms-federation`). */
  constructor(secret: () => string, salt: string) {
    this.#secret = secret;
    this.#salt = salt;
  }

  key(purpose: Purpose): Buffer {
    let key = this.#derived.get(purpose);
    if (key === undefined) {
      key = Buffer.from(hkdfSync('sha256', this.#secret(), this.#salt, purpose, 32));
      this.#derived.set(purpose, key);
    }
    return key;
  }
}
