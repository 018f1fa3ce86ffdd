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

const usernameAlreadySet = (user: UserRow) =>
  new AppError('usernameAlreadySet', { source: { pointer: '/username' }, meta: { username: user.username } });

/** 422 usernameChangeTooSoon with the time a change is allowed again, or null when it is allowed now. */
function usernameChangeTooSoon(user: UserRow, now: Date): AppError | null {
  if (user.usernameChangedAt === null) return null;
  const availableAt = new Date(user.usernameChangedAt.getTime() + usernameChangeCooldownDays * 86_400_000);
  if (availableAt.getTime() <= now.getTime()) return null;
  const at = formatTimestamp(availableAt);
  return new AppError('usernameChangeTooSoon', {
    source: { pointer: '/username' },
    meta: { availableAt: at },
    values: { availableAt: at },
  });
}

export interface ProfileServiceDeps {
  repository: AccountsRepository;
  clock: Clock;
  transactions: Transactions;
  events: EventBus;
}

export class ProfileService {
  readonly #deps: ProfileServiceDeps;

  constructor(deps: ProfileServiceDeps) {
    this.#deps = deps;
  }

  /** Writes a name change and publishes `user.changed` in one transaction. */
  #changeNames(userId: string, patch: Partial<UserRow>): Promise<UserRow> {
    return this.#deps.transactions.run(async () => {
      const updated = await this.#deps.repository.updateUser(userId, { ...patch, updatedAt: this.#deps.clock.now() });
      if (updated === null) throw new AppError('notFound');
      await this.#deps.events.publish('user.changed', { user: updated });
      return updated;
    });
  }

  async #user(userId: string): Promise<UserRow> {
    const user = await this.#deps.repository.findUserById(userId);
    if (user === null) throw new AppError('notFound');
    return user;
  }

  /**
   * Writes a username with `write` (one conditional statement) and publishes `user.changed`; when the
   * condition fails (a parallel request got there first), `refusal` says why from the row as it is now.
   */
  async #setUsername(
    userId: string,
    username: string,
    write: () => Promise<UserRow | null>,
    refusal: (user: UserRow) => UserRow | AppError,
  ): Promise<UserRow> {
    if (isReservedUsername(username)) {
      throw new AppError('usernameTaken', { source: { pointer: '/username' }, detail: 'this username is reserved' });
    }
    try {
      return await this.#deps.transactions.run(async () => {
        const updated = await write();
        if (updated === null) {
          const outcome = refusal(await this.#user(userId));
          if (outcome instanceof AppError) throw outcome;
          return outcome;
        }
        await this.#deps.events.publish('user.changed', { user: updated });
        return updated;
      });
    } catch (error) {
      throw AccountsService.conflictFor(error) ?? error;
    }
  }

  async chooseUsername(userId: string, username: string): Promise<UserRow> {
    return this.#setUsername(
      userId,
      username,
      () => this.#deps.repository.setFirstUsername(userId, username, this.#deps.clock.now()),
      (user) => usernameAlreadySet(user),
    );
  }

  async changeUsername(userId: string, username: string): Promise<UserRow> {
    const user = await this.#user(userId);
    // Checked first so the common refusals cost no write; the conditional write below decides races.
    const early = this.#changeRefusal(user, username);
    if (early !== null) {
      if (early instanceof AppError) throw early;
      return early;
    }
    const now = this.#deps.clock.now();
    const changedBy = new Date(now.getTime() - usernameChangeCooldownDays * 86_400_000);
    return this.#setUsername(
      userId,
      username,
      () => this.#deps.repository.changeUsername(userId, username, now, changedBy),
      (current) => this.#changeRefusal(current, username) ?? new AppError('conflict'),
    );
  }

  /** Why a change cannot be written now (an error), the row itself for a no-op, or null: go ahead. */
  #changeRefusal(user: UserRow, username: string): UserRow | AppError | null {
    if (user.username === null) {
      return new AppError('usernameRequired', {
        source: { pointer: '/username' },
        detail: 'choose a first username with POST /api/users/me/username',
      });
    }
    if (user.username === username) return user;
    return user.usernameChangedAt === null ? null : usernameChangeTooSoon(user, this.#deps.clock.now());
  }

  async setNickname(userId: string, nickname: string): Promise<UserRow> {
    return this.#changeNames(userId, { nickname: checkedNickname(nickname) });
  }
}
