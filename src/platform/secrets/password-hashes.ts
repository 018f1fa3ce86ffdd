/** Password hashes (argon2id), for accounts' passwords and share links' passwords alike. */
import { hash, verify } from '@node-rs/argon2';

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
