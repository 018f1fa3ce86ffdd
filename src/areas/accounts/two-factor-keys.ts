/**
 * The keys of two-factor authentication, each derived (HKDF-SHA256) from the server's two-factor
 * secret (TWO_FACTOR_SECRET, else generated once in DATA_DIR/secrets/two-factor.key), never the
 * secret itself: one to encrypt TOTP secrets (AES-256-GCM), one to hash recovery codes (HMAC), one
 * to sign sign-in tickets (HMAC). Changing the secret makes every stored TOTP secret unreadable:
 * operators keep it (docs/operations.md, Two-factor authentication).
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { seal, unseal } from '../../platform/secrets/sealed-box.ts';

type Purpose = 'totp-secret-encryption' | 'recovery-code-hash' | 'sign-in-ticket';

export class TwoFactorKeys {
  readonly #secret: () => string;
  readonly #derived = new Map<Purpose, Buffer>();

  /** `secret` is read on first use (building the app writes no key file). */
  constructor(secret: () => string) {
    this.#secret = secret;
  }

  #key(purpose: Purpose): Buffer {
    let key = this.#derived.get(purpose);
    if (key === undefined) {
      key = Buffer.from(hkdfSync('sha256', this.#secret(), 'tms-two-factor', purpose, 32));
      this.#derived.set(purpose, key);
    }
    return key;
  }

  /** The sealed form (platform/secrets/sealed-box.ts). */
  encrypt(plain: string): string {
    return seal(this.#key('totp-secret-encryption'), plain);
  }

  /** Throws when the value was not encrypted with this key (another secret, or tampered with). */
  decrypt(sealed: string): string {
    return unseal(this.#key('totp-secret-encryption'), sealed);
  }

  /** The stored form of a (normalized) recovery code. */
  hashRecoveryCode(code: string): string {
    return createHmac('sha256', this.#key('recovery-code-hash')).update(code).digest('hex');
  }

  sign(payload: string): string {
    return createHmac('sha256', this.#key('sign-in-ticket')).update(payload).digest('base64url');
  }

  verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
