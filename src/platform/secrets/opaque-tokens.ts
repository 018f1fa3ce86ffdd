/** Opaque tokens (sessions, mailed links): random, and only their SHA-256 is stored. */
import { createHash, randomBytes } from 'node:crypto';

export const newSecretToken = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
