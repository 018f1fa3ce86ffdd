/** Changing a password while signed in: the current one is required; other sessions end. */
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { hashPassword, isStrongEnough, verifyPassword } from './secrets.ts';

export interface PasswordServiceDeps {
  repository: AccountsRepository;
  clock: Clock;
}

export class PasswordService {
  readonly #deps: PasswordServiceDeps;

  constructor(deps: PasswordServiceDeps) {
    this.#deps = deps;
  }

  /** Returns how many other sessions were ended; the session making the change stays. */
  async change(
    userId: string,
    currentSessionId: string,
    currentPassword: string,
    newPassword: string,
  ): Promise<number> {
    const user = await this.#deps.repository.findUserById(userId);
    if (user === null) throw new AppError('notFound');
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw new AppError('wrongPassword', { source: { pointer: '/currentPassword' } });
    }
    if (!isStrongEnough(newPassword)) throw new AppError('weakPassword', { source: { pointer: '/newPassword' } });
    const now = this.#deps.clock.now();
    await this.#deps.repository.updateUser(userId, { passwordHash: await hashPassword(newPassword), updatedAt: now });
    await this.#deps.repository.useAllTokens(userId, 'reset-password', now);
    return this.#deps.repository.deleteSessionsOfUser(userId, currentSessionId);
  }
}
