/**
 * The keys of two-factor authentication, each derived (HKDF-SHA256) from the server's two-factor
 * secret (TWO_FACTOR_SECRET, else generated once in DATA_DIR/secrets/two-factor.key), never the
 * secret itself: one to encrypt TOTP secrets (AES-256-GCM), one to hash recovery codes (HMAC), one
 * to sign sign-in tickets (HMAC). Changing the secret makes every stored TOTP secret unreadable:
 * operators keep it (docs/operations.md, Two-factor authentication).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DerivedKeys } from '../../platform/secrets/derived-keys.ts';
import { seal, unseal } from '../../platform/secrets/sealed-box.ts';

type Purpose = 'totp-secret-encryption' | 'recovery-code-hash' | 'sign-in-ticket';

export class TwoFactorKeys {
  readonly #keys: DerivedKeys<Purpose>;

  /** `secret` is read on first use (building the app writes no key file). */
  constructor(secret: () => string) {
    this.#keys = new DerivedKeys(secret, 'tms-two-factor');
  }

  #key(purpose: Purpose): Buffer {
    return this.#keys.key(purpose);
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
