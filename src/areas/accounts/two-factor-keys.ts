/**
 * The keys of two-factor authentication, each derived (HKDF-SHA256) from the server's two-factor
 * secret (TWO_FACTOR_SECRET, else generated once in DATA_DIR/secrets/two-factor.key), never the
 * secret itself: one to encrypt TOTP secrets (AES-256-GCM), one to hash recovery codes (HMAC), one
 * to sign sign-in tickets (HMAC). Changing the secret makes every stored TOTP secret unreadable:
 * operators keep it (docs/operations.md, Two-factor authentication).
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

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

  /** base64url(iv).base64url(tag).base64url(ciphertext). */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key('totp-secret-encryption'), iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
  }

  /** Throws when the value was not encrypted with this key (another secret, or tampered with). */
  decrypt(sealed: string): string {
    const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('malformed ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', this.#key('totp-secret-encryption'), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
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
