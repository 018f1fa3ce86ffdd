/**
 * Sessions: opaque bearer tokens (only their hash is stored), sliding expiry of SESSION_TTL_DAYS
 * from the last use, last-seen time, IP and user agent kept for the session list.
 *
 * Every session of the service is opened here, and two-factor authentication is checked here, so no
 * way in can skip it: `create` (every sign-in: password, provider, web form, passkey, registration)
 * answers 401 twoFactorRequired with a signed ticket instead of a session when the account has
 * two-factor on, unless a user-verifying passkey gave both factors; `completeTwoFactor` (POST
 * /api/auth/two-factor and the web form's code step) opens the session once the ticket and a second
 * factor check out. Each new session records its device (a new one is mailed: sign-in-notices.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { ResolvedSession, SessionResolver } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import { newId } from '../../platform/ids/ids.ts';
import { hashToken, newSecretToken } from '../../platform/secrets/opaque-tokens.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { type ClientInfo, clientInfo } from './client-info.ts';
import type { CachedSession, SessionCache } from './session-cache.ts';
import type { SignInNotices } from './sign-in-notices.ts';
import type { SecondFactor, SessionRow, SignInMethod, UserRow } from './tables.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';
import type { TwoFactorProof, TwoFactorService } from './two-factor.service.ts';
import type { TwoFactorKeys } from './two-factor-keys.ts';
import { issueTicket, readTicket } from './two-factor-tickets.ts';

export { type ClientInfo, clientInfo } from './client-info.ts';
export type { SignInMethod } from './tables.ts';

/** What a sign-in knows of the account it opens a session for: its row, read by the sign-in itself. */
export type SigningInUser = Pick<UserRow, 'id' | 'deletionRequestedAt'>;

/** Last-seen is written at most this often, so authenticated reads are not all writes. */
const touchIntervalMs = 60_000;

/** What a sign-in tells beside its method: a passkey's assertion says whether the user was verified. */
export interface SignInOptions {
  /** A passkey that verified its user (PIN, biometrics) gives both factors. */
  userVerified?: boolean;
}

export interface SessionsServiceDeps {
  repository: AccountsRepository;
  cache: SessionCache;
  clock: Clock;
  ttlDays: number;
  transactions: Transactions;
  twoFactor: TwoFactorService;
  twoFactorRepository: TwoFactorRepository;
  keys: TwoFactorKeys;
  notices: SignInNotices;
}

export class SessionsService implements SessionResolver {
  readonly #deps: SessionsServiceDeps;

  constructor(deps: SessionsServiceDeps) {
    this.#deps = deps;
  }

  /** Run before every new session (accounts' deletion cancels a pending one: deletion.service.ts). */
  readonly #beforeSignIn: ((user: SigningInUser) => Promise<void>)[] = [];

  /** Registers work every sign-in does first, whatever its method (contract: all sign-ins come through create). */
  beforeSignIn(hook: (user: SigningInUser) => Promise<void>): void {
    this.#beforeSignIn.push(hook);
  }

  #expiry(from: Date): Date {
    return new Date(from.getTime() + this.#deps.ttlDays * 86_400_000);
  }

  /**
   * A sign-in whose first factor checked out. With two-factor on (and no user-verifying passkey),
   * throws 401 twoFactorRequired carrying a ticket (`meta.ticket`, `meta.expiresAt`): nothing is
   * written, and the caller's transaction rolls back.
   */
  async create(
    user: SigningInUser,
    client: ClientInfo,
    method: SignInMethod = 'password',
    options: SignInOptions = {},
  ): Promise<{ session: SessionRow; accessToken: string }> {
    if (method === 'passkey' && options.userVerified === true) {
      return this.#open(user, client, method, 'user-verification');
    }
    if (await this.#deps.twoFactor.isEnabled(user.id)) {
      const { ticket, token } = issueTicket(this.#deps.keys, user.id, method, this.#deps.clock.now());
      throw new AppError('twoFactorRequired', {
        detail: 'two-factor authentication is on: POST /api/auth/two-factor with this ticket and a code',
        meta: { ticket: token, expiresAt: formatTimestamp(ticket.expiresAt) },
      });
    }
    // A passkey that did not verify its user is one factor (something held): without two-factor on to
    // complete it with a code, it opens no session (docs/api.md, Passkeys).
    if (method === 'passkey') {
      throw new AppError('passkeyUserVerificationRequired', { detail: 'the authenticator did not verify the user' });
    }
    return this.#open(user, client, method, null);
  }

  /**
   * The second step of a sign-in: the ticket `create` answered, and a TOTP or recovery code. Opens
   * the session of the ticket's method; the ticket is spent. 401 twoFactorTicketInvalid for a ticket
   * that is not ours, expired, spent, or whose account is banned or gone; 422 twoFactorCodeInvalid
   * for a wrong code (the ticket stays usable until its budget of wrong codes is spent).
   */
  async completeTwoFactor(
    ticketToken: string,
    proof: TwoFactorProof,
    client: ClientInfo,
  ): Promise<{ user: UserRow; session: SessionRow; accessToken: string }> {
    const now = this.#deps.clock.now();
    const ticket = readTicket(this.#deps.keys, ticketToken, now);
    return this.#deps.transactions.run(async () => {
      const user = await this.#deps.repository.findUserById(ticket.userId);
      if (user === null || user.anonymizedAt !== null || user.bannedAt !== null) {
        throw new AppError('twoFactorTicketInvalid', { source: { pointer: '/ticket' }, detail: 'sign in again' });
      }
      if (!(await this.#deps.twoFactorRepository.spendTicket(ticket.id, user.id, ticket.expiresAt, now))) {
        throw new AppError('twoFactorTicketInvalid', {
          source: { pointer: '/ticket' },
          detail: 'this ticket opened a session already: sign in again',
        });
      }
      const factor = await this.#deps.twoFactor.verifySignIn(user, proof, ticket.id, client);
      return { user, ...(await this.#open(user, client, ticket.method, factor)) };
    });
  }

  /** The one place a session row is written: the sign-in's hooks, the row, its device. */
  async #open(
    user: SigningInUser,
    client: ClientInfo,
    method: SignInMethod,
    secondFactor: SecondFactor | null,
  ): Promise<{ session: SessionRow; accessToken: string }> {
    return this.#deps.transactions.run(async () => {
      for (const hook of this.#beforeSignIn) await hook(user);
      const userId = user.id;
      const now = this.#deps.clock.now();
      const accessToken = newSecretToken('tms');
      const session: SessionRow = {
        id: newId(),
        userId,
        tokenHash: hashToken(accessToken),
        createdAt: now,
        lastSeenAt: now,
        expiresAt: this.#expiry(now),
        userAgent: client.userAgent,
        ip: client.ip,
        signInMethod: method,
        secondFactor,
      };
      await this.#deps.repository.insertSession(session);
      await this.#deps.notices.signedIn(userId, client);
      return { session, accessToken };
    });
  }

  /**
   * The live session of a token. A session cached and seen within the minute is answered at once
   * (no promise: what most authenticated requests cost here); else a promise, which reads the row or
   * writes the last-seen time.
   */
  resolve(token: string, request: FastifyRequest): ResolvedSession | null | Promise<ResolvedSession | null> {
    const tokenHash = hashToken(token);
    const now = this.#deps.clock.now();
    const session = this.#deps.cache.resolve(tokenHash, () => this.#deps.repository.findLiveSession(tokenHash, now));
    return session instanceof Promise
      ? session.then((loaded) => this.#live(loaded, now, request))
      : this.#live(session, now, request);
  }

  #live(session: CachedSession | null, now: Date, request: FastifyRequest) {
    if (session === null || session.expiresAt <= now) return null;
    if (now.getTime() - session.lastSeenAt.getTime() > touchIntervalMs) return this.#touched(session, now, request);
    return { viewer: { userId: session.userId, sessionId: session.sessionId }, banned: session.banned };
  }

  async #touched(session: CachedSession, now: Date, request: FastifyRequest): Promise<ResolvedSession> {
    const client = clientInfo(request);
    session.lastSeenAt = now;
    session.expiresAt = this.#expiry(now);
    await this.#deps.repository.touchSession(session.sessionId, now, session.expiresAt, client.ip, client.userAgent);
    return { viewer: { userId: session.userId, sessionId: session.sessionId }, banned: session.banned };
  }

  /** Which of these sessions are still live (a long-lived connection checks its own: the notification stream). */
  async liveAmong(sessionIds: string[]): Promise<Set<string>> {
    return new Set(await this.#deps.repository.liveSessionIds(sessionIds, this.#deps.clock.now()));
  }

  list(userId: string, page: PageRequest) {
    return this.#deps.repository.listSessions(userId, this.#deps.clock.now(), page);
  }

  async revoke(userId: string, sessionId: string): Promise<void> {
    if (!(await this.#deps.repository.deleteSession(userId, sessionId))) throw new AppError('notFound');
  }

  endAll(userId: string, exceptSessionId: string | null = null): Promise<number> {
    return this.#deps.repository.deleteSessionsOfUser(userId, exceptSessionId);
  }
}
