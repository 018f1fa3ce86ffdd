/** Passwords (argon2id) and sponsorship codes (opaque tokens: platform/secrets/opaque-tokens.ts). */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** The password rule, stated in errors.weakPassword: 10 to 128 characters, a letter and a non-letter. */
export function isStrongEnough(password: string): boolean {
  return password.length >= 10 && password.length <= 128 && /\p{L}/u.test(password) && /[^\p{L}]/u.test(password);
}

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes).
const argonOptions = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, argonOptions);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verifying against this when the account is unknown makes both answers take the same time. */
let decoyHash: Promise<string> | null = null;
export const decoyPasswordHash = () => {
  decoyHash ??= hashPassword('decoy password 0');
  return decoyHash;
};

/** A short, readable code for sponsorship links (no 0/O/1/I to avoid misreading). */
export function newSponsorCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}
