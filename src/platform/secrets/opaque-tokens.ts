/** Opaque tokens (sessions, mailed links): random, and only their SHA-256 is stored. */
import { hash, randomBytes } from 'node:crypto';

export const newSecretToken = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;
// One-shot hashing: half the time of createHash().update().digest(), and a session token is hashed
// on every authenticated request (docs/benchmarks.md, The per-request work, again).
export const hashToken = (token: string) => hash('sha256', token, 'hex');
