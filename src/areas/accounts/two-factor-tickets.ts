/**
 * Sign-in tickets: what a first factor earns on an account with two-factor on, instead of a session.
 * A ticket is signed, not stored (the sign-in that issues it may be rolled back: an identity
 * provider's sign-in runs in a transaction, and the challenge is its error): `tft_` then base64url of
 * its claims, a dot, and their HMAC. It lives `ticketTtlMs`; the one that opens a session is spent
 * (two_factor_spent_tickets), so it never opens another.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { type SignInMethod, signInMethods } from './tables.ts';
import type { TwoFactorKeys } from './two-factor-keys.ts';

export const ticketTtlMs = 5 * 60_000;
const prefix = 'tft_';

export interface SignInTicket {
  id: string;
  userId: string;
  method: SignInMethod;
  expiresAt: Date;
}

export function issueTicket(keys: TwoFactorKeys, userId: string, method: SignInMethod, now: Date) {
  const ticket: SignInTicket = { id: randomUUID(), userId, method, expiresAt: new Date(now.getTime() + ticketTtlMs) };
  const claims = Buffer.from(
    JSON.stringify({ i: ticket.id, u: userId, m: method, e: ticket.expiresAt.getTime() }),
  ).toString('base64url');
  return { ticket, token: `${prefix}${claims}.${keys.sign(claims)}` };
}

const invalid = (detail: string) => new AppError('twoFactorTicketInvalid', { source: { pointer: '/ticket' }, detail });

/** The ticket a token is, if it is one of ours and has not expired; throws 401 twoFactorTicketInvalid otherwise. */
export function readTicket(keys: TwoFactorKeys, token: string, now: Date): SignInTicket {
  const [claims, signature] = token.startsWith(prefix) ? token.slice(prefix.length).split('.') : [];
  if (claims === undefined || signature === undefined || !keys.verify(claims, signature)) {
    throw invalid('not a sign-in ticket of this service');
  }
  const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
    i: string;
    u: string;
    m: SignInMethod;
    e: number;
  };
  if (!signInMethods.includes(parsed.m)) throw invalid('not a sign-in ticket of this service');
  if (parsed.e <= now.getTime()) throw invalid('the ticket has expired: sign in again');
  return { id: parsed.i, userId: parsed.u, method: parsed.m, expiresAt: new Date(parsed.e) };
}
