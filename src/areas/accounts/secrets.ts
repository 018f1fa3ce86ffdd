/** Passwords (argon2id: platform/secrets/password-hashes.ts) and sponsorship codes (opaque tokens: platform/secrets/opaque-tokens.ts). */
import { randomBytes } from 'node:crypto';

export { decoyPasswordHash, hashPassword, verifyPassword } from '../../platform/secrets/password-hashes.ts';

/** The password rule, stated in errors.weakPassword: 10 to 128 characters, a letter and a non-letter. */
export function isStrongEnough(password: string): boolean {
  return password.length >= 10 && password.length <= 128 && /\p{L}/u.test(password) && /[^\p{L}]/u.test(password);
}

/** A short, readable code for sponsorship links (no 0/O/1/I to avoid misreading). */
export function newSponsorCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}
