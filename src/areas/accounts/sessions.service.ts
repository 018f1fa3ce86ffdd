/**
 * Sessions: opaque bearer tokens (only their hash is stored), sliding expiry of SESSION_TTL_DAYS
 * from the last use, last-seen time, IP and user agent kept for the session list.
 */
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { SessionResolver } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/ids/ids.ts';
import { hashToken, newSecretToken } from '../../platform/secrets/opaque-tokens.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { SessionCache } from './session-cache.ts';
import type { SessionRow, SignInMethod, UserRow } from './tables.ts';

export type { SignInMethod } from './tables.ts';

/** What a sign-in knows of the account it opens a session for: its row, read by the sign-in itself. */
export type SigningInUser = Pick<UserRow, 'id' | 'deletionRequestedAt'>;

/** Last-seen is written at most this often, so authenticated reads are not all writes. */
const touchIntervalMs = 60_000;

/** What a sign-in proved beside its method (the passkeys area's contract with this service). */
export interface SignInProof {
  /** A passkey whose authenticator verified its user (PIN, biometrics): two factors in one. */
  userVerified?: boolean;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

export const clientInfo = (request: FastifyRequest): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
});

export interface SessionsServiceDeps {
  repository: AccountsRepository;
  cache: SessionCache;
  clock: Clock;
  ttlDays: number;
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

  async create(
    user: SigningInUser,
    client: ClientInfo,
    method: SignInMethod = 'password',
    proof: SignInProof = {},
  ): Promise<{ session: SessionRow; accessToken: string }> {
    // A passkey that did not verify its user is one factor (something held): it opens no session by
    // itself (docs/api.md, Passkeys). The two-factor step, where it applies, comes before this.
    if (method === 'passkey' && proof.userVerified !== true) {
      throw new AppError('passkeyUserVerificationRequired', { detail: 'the authenticator did not verify the user' });
    }
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
    };
    await this.#deps.repository.insertSession(session);
    return { session, accessToken };
  }

  async resolve(token: string, request: FastifyRequest) {
    const now = this.#deps.clock.now();
    const tokenHash = hashToken(token);
    const session = await this.#deps.cache.resolve(tokenHash, () =>
      this.#deps.repository.findLiveSession(tokenHash, now),
    );
    if (session === null || session.expiresAt <= now) return null;
    if (now.getTime() - session.lastSeenAt.getTime() > touchIntervalMs) {
      const client = clientInfo(request);
      session.lastSeenAt = now;
      session.expiresAt = this.#expiry(now);
      await this.#deps.repository.touchSession(session.sessionId, now, session.expiresAt, client.ip, client.userAgent);
    }
    return { viewer: { userId: session.userId, sessionId: session.sessionId }, banned: session.banned };
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
