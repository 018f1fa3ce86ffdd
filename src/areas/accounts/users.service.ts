/**
 * The `users` table as other areas may use it: accounts owns the table, and every other area reads,
 * locks or changes a user through these methods only (never through the table).
 *
 * Lock order: a writer of one user's data (notifications, experience, profile images) calls
 * `lock(userId)` first, before touching anything else of that user, so concurrent writers queue on
 * the same row in the same order instead of deadlocking.
 */
import type { Clock } from '../../platform/clock.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { isVisibleUser } from './read-model.ts';
import type { HiddenMutes, RelationsService } from './relations.service.ts';
import type { UserRow } from './tables.ts';

export type ProfileImageKind = 'avatar' | 'cover';

/** The name a user is found by: the username, or for a remote actor's shadow its handle `name@host`. */
export const publicUsernameOf = (user: Pick<UserRow, 'username' | 'remoteHandle'>): string | null =>
  user.username ?? user.remoteHandle;

/**
 * How a user is named to others in texts (notifications, mails, pages): nickname, else username, else
 * the 32-hex id. A remote actor's shadow is named by its handle `@ana@host`, whatever name it gives
 * itself, so that no remote name passes for a local user's.
 */
export const displayNameOf = (user: UserRow) =>
  user.remoteHandle !== null
    ? `@${user.remoteHandle}`
    : (user.nickname ?? user.username ?? user.id.replaceAll('-', ''));

export interface UsersServiceDeps {
  repository: AccountsRepository;
  relations: RelationsService;
  clock: Clock;
}

export class UsersService {
  readonly #deps: UsersServiceDeps;

  constructor(deps: UsersServiceDeps) {
    this.#deps = deps;
  }

  /** Locks the user's row for the transaction in progress; null when there is no such user. */
  lock(userId: string): Promise<UserRow | null> {
    return this.#deps.repository.lockUser(userId);
  }

  /**
   * Locks several users in ascending id, the order every writer of more than one user takes them in
   * (docs/development.md); each row, or null for an unknown id, by id.
   */
  async lockInOrder(userIds: readonly string[]): Promise<Map<string, UserRow | null>> {
    const locked = new Map<string, UserRow | null>();
    for (const id of [...new Set(userIds)].sort()) locked.set(id, await this.#deps.repository.lockUser(id));
    return locked;
  }

  /** Any user, whatever their state (writers, operators, the user themself). */
  find(userId: string): Promise<UserRow | null> {
    return this.#deps.repository.findUserById(userId);
  }

  /** A user others may see (read-model.ts `isVisibleUser`); null when unknown, banned or being deleted. */
  async findVisible(userId: string): Promise<UserRow | null> {
    const user = await this.#deps.repository.findUserById(userId);
    return user !== null && isVisibleUser(user) ? user : null;
  }

  /**
   * A user the viewer may see: visible, and neither blocking the viewer nor blocked by them (404 between
   * them, as for an account that does not exist); for no viewer, `findVisible`.
   */
  async findVisibleTo(userId: string, viewerId: string | null): Promise<UserRow | null> {
    const user = await this.findVisible(userId);
    if (user === null || (await this.#deps.relations.blockedEitherWay(viewerId, user.id))) return null;
    return user;
  }

  /** `findByUsername` for the viewer: null between two users when either blocks the other. */
  async findByUsernameFor(username: string, viewerId: string | null): Promise<UserRow | null> {
    const user = await this.findByUsername(username);
    if (user === null || (await this.#deps.relations.blockedEitherWay(viewerId, user.id))) return null;
    return user;
  }

  /** Whether either of the two blocks the other (false for no viewer or oneself). */
  blockedEitherWay(viewerId: string | null, userId: string): Promise<boolean> {
    return this.#deps.relations.blockedEitherWay(viewerId, userId);
  }

  /**
   * The users hidden from the viewer (read-model.ts `shownTo` in memory, read once per request): blocked
   * either way, and with `mutes` the viewer's mutes in force; empty for no viewer.
   */
  hiddenFrom(viewerId: string | null, mutes: HiddenMutes): Promise<ReadonlySet<string>> {
    return this.#deps.relations.hiddenFrom(viewerId, mutes);
  }

  findByEmail(email: string): Promise<UserRow | null> {
    return this.#deps.repository.findUserByEmail(email);
  }

  /** Any account by username, whatever its state (operators act on banned and erased accounts too). */
  findAnyByUsername(username: string): Promise<UserRow | null> {
    return this.#deps.repository.findUserByUsername(username);
  }

  /**
   * An account by username, when others may see it: a banned account or one being deleted cannot be
   * found by its name (only its owner signs in with it).
   */
  async findByUsername(username: string): Promise<UserRow | null> {
    const user = await this.#deps.repository.findUserByUsername(username);
    return user !== null && isVisibleUser(user) ? user : null;
  }

  /** Experience and level, which gamification computes; call with the user locked. */
  async setProgress(userId: string, experience: number, level: number): Promise<void> {
    await this.#deps.repository.updateUser(userId, { experience, level, updatedAt: this.#deps.clock.now() });
  }

  /** Points the avatar or cover at a media (or at nothing); media calls it with the user locked. */
  async setProfileImage(userId: string, kind: ProfileImageKind, mediaId: string | null): Promise<void> {
    await this.#deps.repository.updateUser(
      userId,
      kind === 'avatar' ? { avatarMediaId: mediaId } : { coverMediaId: mediaId },
    );
  }
}
