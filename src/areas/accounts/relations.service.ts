/**
 * Blocks and mutes (docs/api.md, "Blocks and mutes"). A block works both ways at once and is written
 * with both users locked in ascending id (the lock order), so blocks, unblocks and follows between the
 * same two people queue instead of interleaving: `user.blocked` lets follows remove the follows both
 * ways in the same transaction. A mute is one way and silent. Nobody is told of either.
 *
 * What the viewer may see of whom is read-model.ts `shownTo` (SQL readers); `hiddenFrom` is the same
 * rule as a set of ids for readers that filter a cached list in memory, and `blockedEitherWay` for a
 * check of one pair (writes, profiles).
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import './events.ts';
import { isVisibleUser } from './read-model.ts';
import type { BlockedUser, MutedUser, MuteTerms, RelationsRepository } from './relations.repository.ts';
import type { UserBlockRow, UserMuteRow } from './tables.ts';

export type { BlockedUser, MutedUser, MuteTerms };

/** What of the rule a reader applies in memory: blocks only, or with the viewer's mutes (of content, of notifications). */
export type HiddenMutes = 'none' | 'content' | 'notifications';

export interface RelationsServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: RelationsRepository;
  accounts: AccountsRepository;
  clock: Clock;
}

export class RelationsService {
  readonly #deps: RelationsServiceDeps;

  constructor(deps: RelationsServiceDeps) {
    this.#deps = deps;
  }

  /** The other user of a block or mute: never oneself (422), and visible to others (else 404). */
  async #requireOther(selfId: string, otherId: string, selfCode: 'cannotBlockSelf' | 'cannotMuteSelf') {
    if (selfId === otherId) throw new AppError(selfCode, { source: { parameter: 'userId' } });
    const other = await this.#deps.accounts.findUserById(otherId);
    if (other === null || !isVisibleUser(other)) {
      throw new AppError('notFound', { source: { parameter: 'userId' }, detail: 'no such user' });
    }
    return other;
  }

  /** Idempotent: blocking again keeps the first block (and its time). */
  async block(blockerId: string, blockedId: string): Promise<UserBlockRow> {
    await this.#requireOther(blockerId, blockedId, 'cannotBlockSelf');
    return this.#deps.transactions.run(async () => {
      for (const id of [blockerId, blockedId].sort()) await this.#deps.accounts.lockUser(id);
      if (await this.#deps.repository.insertBlock(blockerId, blockedId, this.#deps.clock.now())) {
        await this.#deps.events.publish('user.blocked', { blockerId, blockedId });
      }
      const block = await this.#deps.repository.findBlock(blockerId, blockedId);
      if (block === null) throw new Error('user_blocks: the block just written is missing');
      return block;
    });
  }

  /** Idempotent; an unknown user is 404, a hidden one may still be unblocked. */
  async unblock(blockerId: string, blockedId: string): Promise<void> {
    if ((await this.#deps.accounts.findUserById(blockedId)) === null) {
      throw new AppError('notFound', { source: { parameter: 'userId' }, detail: 'no such user' });
    }
    await this.#deps.transactions.run(async () => {
      for (const id of [blockerId, blockedId].sort()) await this.#deps.accounts.lockUser(id);
      if (await this.#deps.repository.deleteBlock(blockerId, blockedId)) {
        await this.#deps.events.publish('user.unblocked', { blockerId, blockedId });
      }
    });
  }

  /** Mutes, or changes the terms of a mute in force; an end not in the future is 422 and changes nothing. */
  async mute(muterId: string, mutedId: string, terms: MuteTerms): Promise<UserMuteRow> {
    const now = this.#deps.clock.now();
    if (terms.expiresAt !== null && terms.expiresAt.getTime() <= now.getTime()) {
      throw new AppError('expiryInPast', { source: { pointer: '/expiresAt' } });
    }
    await this.#requireOther(muterId, mutedId, 'cannotMuteSelf');
    return this.#deps.transactions.run(async () => {
      await this.#deps.repository.deleteExpiredMutes(muterId, now);
      const mute = await this.#deps.repository.upsertMute(muterId, mutedId, terms, now);
      await this.#deps.events.publish('user.muted', { muterId, mutedId, ...terms });
      return mute;
    });
  }

  /** Idempotent; an unknown user is 404. */
  async unmute(muterId: string, mutedId: string): Promise<void> {
    if ((await this.#deps.accounts.findUserById(mutedId)) === null) {
      throw new AppError('notFound', { source: { parameter: 'userId' }, detail: 'no such user' });
    }
    await this.#deps.transactions.run(async () => {
      await this.#deps.repository.deleteExpiredMutes(muterId, this.#deps.clock.now());
      if (await this.#deps.repository.deleteMute(muterId, mutedId)) {
        await this.#deps.events.publish('user.unmuted', { muterId, mutedId });
      }
    });
  }

  blocks(userId: string, page: PageRequest): Promise<BlockedUser[]> {
    return this.#deps.repository.blocks(userId, page);
  }

  /** My mutes in force (an expired mute has ended). */
  mutes(userId: string, page: PageRequest): Promise<MutedUser[]> {
    return this.#deps.repository.mutes(userId, this.#deps.clock.now(), page);
  }

  /** Whether either of the two blocks the other (false for no viewer, or the user themself). */
  async blockedEitherWay(viewerId: string | null, userId: string): Promise<boolean> {
    if (viewerId === null || viewerId === userId) return false;
    return this.#deps.repository.blockedEitherWay(viewerId, userId);
  }

  /** The ids hidden from the viewer (read once per request), for readers that filter in memory. */
  async hiddenFrom(viewerId: string | null, mutes: HiddenMutes): Promise<ReadonlySet<string>> {
    if (viewerId === null) return new Set();
    return new Set(await this.#deps.repository.hiddenFrom(viewerId, mutes, this.#deps.clock.now()));
  }
}
