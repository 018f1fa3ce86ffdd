/**
 * "Confirm it is you" before a change to how an account signs in (registering a passkey: docs/api.md,
 * Passkeys): the account's password, checked like a sign-in and counted by the same lockout, or a
 * session opened in the last 10 minutes (whatever its method: it has just proven the account).
 */
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { DeletionRepository } from './deletion.repository.ts';
import { recentSignInMs } from './deletion.service.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { verifyPassword } from './secrets.ts';
import type { ClientInfo } from './sessions.service.ts';

export interface ReauthenticationProof {
  password?: string;
}

export interface ReauthenticationServiceDeps {
  repository: AccountsRepository;
  sessionOpenings: Pick<DeletionRepository, 'sessionOpening'>;
  throttle: LoginThrottle;
  clock: Clock;
}

export class ReauthenticationService {
  readonly #deps: ReauthenticationServiceDeps;

  constructor(deps: ReauthenticationServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Passes, or throws: 422 wrongPassword (a failure of the login lockout), 429 when that lockout
   * holds, 403 reauthenticationRequired without a password and without a session of the last 10 minutes.
   */
  async confirm(
    viewer: { userId: string; sessionId: string },
    proof: ReauthenticationProof,
    client: ClientInfo,
  ): Promise<void> {
    const user = await this.#deps.repository.findUserById(viewer.userId);
    if (user === null) throw new AppError('notFound');
    if (proof.password !== undefined) {
      await this.#deps.throttle.check(user.id, client.ip);
      if (!(await verifyPassword(user.passwordHash, proof.password))) {
        await this.#deps.throttle.fail(user.id, client.ip);
        throw new AppError('wrongPassword', { source: { pointer: '/password' } });
      }
      return;
    }
    const opening = await this.#deps.sessionOpenings.sessionOpening(viewer.sessionId);
    const recent = opening !== null && this.#deps.clock.now().getTime() - opening.createdAt.getTime() <= recentSignInMs;
    if (!recent) {
      throw new AppError('reauthenticationRequired', {
        source: { pointer: '/password' },
        detail: 'give your password, or sign in again and ask within 10 minutes',
      });
    }
  }
}
