/** Changing a password while signed in: the current one is required; other sessions end. */
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { hashPassword, isStrongEnough, verifyPassword } from './secrets.ts';

export class PasswordService {
  private readonly repository: AccountsRepository;
  private readonly clock: Clock;

  constructor(repository: AccountsRepository, clock: Clock) {
    this.repository = repository;
    this.clock = clock;
  }

  /** Returns how many other sessions were ended; the session making the change stays. */
  async change(
    userId: string,
    currentSessionId: string,
    currentPassword: string,
    newPassword: string,
  ): Promise<number> {
    const user = await this.repository.findUserById(userId);
    if (user === null) throw new AppError('notFound');
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw new AppError('wrongPassword', { source: { pointer: '/currentPassword' } });
    }
    if (!isStrongEnough(newPassword)) throw new AppError('weakPassword', { source: { pointer: '/newPassword' } });
    const now = this.clock.now();
    await this.repository.updateUser(userId, { passwordHash: await hashPassword(newPassword), updatedAt: now });
    await this.repository.useAllTokens(userId, 'reset-password', now);
    return this.repository.deleteSessionsOfUser(userId, currentSessionId);
  }
}
