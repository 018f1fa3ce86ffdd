/** The caller's names: first username choice, username change (with a cool-down), nickname. */
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { AccountsService } from './accounts.service.ts';
import type { UserRow } from './tables.ts';
import { checkedNickname, isReservedUsername } from './usernames.ts';

/** A username may change once in this many days (docs/api.md); the first choice does not count. */
export const usernameChangeCooldownDays = 30;

export class ProfileService {
  private readonly repository: AccountsRepository;
  private readonly clock: Clock;
  private readonly transactions: Transactions;
  private readonly events: EventBus;

  constructor(repository: AccountsRepository, clock: Clock, transactions: Transactions, events: EventBus) {
    this.repository = repository;
    this.clock = clock;
    this.transactions = transactions;
    this.events = events;
  }

  /** Writes a name change and publishes `user.changed` in one transaction. */
  #changeNames(userId: string, patch: Partial<UserRow>): Promise<UserRow> {
    return this.transactions.run(async () => {
      const updated = await this.repository.updateUser(userId, { ...patch, updatedAt: this.clock.now() });
      if (updated === null) throw new AppError('notFound');
      await this.events.publish('user.changed', { user: updated });
      return updated;
    });
  }

  async #user(userId: string): Promise<UserRow> {
    const user = await this.repository.findUserById(userId);
    if (user === null) throw new AppError('notFound');
    return user;
  }

  async #setUsername(userId: string, username: string, patch: { usernameChangedAt?: Date }): Promise<UserRow> {
    if (isReservedUsername(username)) {
      throw new AppError('usernameTaken', { source: { pointer: '/username' }, detail: 'this username is reserved' });
    }
    try {
      return await this.#changeNames(userId, { username, ...patch });
    } catch (error) {
      throw AccountsService.conflictFor(error) ?? error;
    }
  }

  async chooseUsername(userId: string, username: string): Promise<UserRow> {
    const user = await this.#user(userId);
    if (user.username !== null) {
      throw new AppError('usernameAlreadySet', { source: { pointer: '/username' }, meta: { username: user.username } });
    }
    return this.#setUsername(userId, username, {});
  }

  async changeUsername(userId: string, username: string): Promise<UserRow> {
    const user = await this.#user(userId);
    if (user.username === null) {
      throw new AppError('usernameRequired', {
        source: { pointer: '/username' },
        detail: 'choose a first username with POST /api/users/me/username',
      });
    }
    if (user.username === username) return user;
    if (user.usernameChangedAt !== null) {
      const availableAt = new Date(user.usernameChangedAt.getTime() + usernameChangeCooldownDays * 86_400_000);
      if (availableAt.getTime() > this.clock.now().getTime()) {
        const at = formatTimestamp(availableAt);
        throw new AppError('usernameChangeTooSoon', {
          source: { pointer: '/username' },
          meta: { availableAt: at },
          values: { availableAt: at },
        });
      }
    }
    return this.#setUsername(userId, username, { usernameChangedAt: this.clock.now() });
  }

  async setNickname(userId: string, nickname: string): Promise<UserRow> {
    return this.#changeNames(userId, { nickname: checkedNickname(nickname) });
  }
}
