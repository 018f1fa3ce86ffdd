/**
 * dispatch(): the one way any area creates a notification. Applies the recipient's inApp preference
 * and the soft dedup of the interface (an open unread row with the same owner and dedup_key created
 * inside NOTIFICATION_DEDUP_WINDOW_MINUTES absorbs the dispatch: only its created_at moves). The
 * merge is an INSERT ... ON CONFLICT on a partial unique index, so concurrent dispatches cannot both
 * insert. It runs in the caller's transaction (the one in progress), so the notification commits or
 * rolls back with the change it announces.
 *
 * Lock order: dispatch first locks the recipient through accounts (`users.lock`), as experience
 * awards do, then writes (a new row also takes the owner's notification_counters row through the
 * trigger of 0130). So a follow and an XP award for the same user queue instead of deadlocking.
 * Within one transaction, merges should come before inserts for one owner, since mark-all-read takes
 * rows, then counters.
 */
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import type { NotificationData, NotificationKind } from './kinds.ts';
import type { NotificationsRepository } from './notifications.repository.ts';
import type { FeedChanges } from './stream/feed-changes.ts';

export type DispatchOutcome =
  | { outcome: 'inserted'; id: string }
  | { outcome: 'refreshed'; id: string }
  | { outcome: 'suppressed'; id: null };

/** A row leaving the window between the two statements is retried; more than this means a bug. */
const maxAttempts = 3;

export interface NotificationDispatcherDeps {
  transactions: Transactions;
  repository: NotificationsRepository;
  users: UsersService;
  clock: Clock;
  dedupWindowMinutes: number;
  /** Told of every row written, for the live streams (after the commit). */
  changes: FeedChanges;
}

export class NotificationDispatcher {
  readonly #deps: NotificationDispatcherDeps;

  constructor(deps: NotificationDispatcherDeps) {
    this.#deps = deps;
  }

  async dispatch<K extends NotificationKind>(
    recipientId: string,
    kind: K,
    data: NotificationData[K],
    dedupKey: string | null,
  ): Promise<DispatchOutcome> {
    return this.#deps.transactions.run(() => this.#dispatch(recipientId, kind, data, dedupKey));
  }

  async #dispatch<K extends NotificationKind>(
    recipientId: string,
    kind: K,
    data: NotificationData[K],
    dedupKey: string | null,
  ): Promise<DispatchOutcome> {
    const repository = this.#deps.repository;
    if (!(await repository.channelEnabled(recipientId, kind, 'inApp'))) return { outcome: 'suppressed', id: null };
    await this.#deps.users.lock(recipientId);
    await this.#deps.changes.changed(recipientId);
    const now = this.#deps.clock.now();
    const row = { id: newId(), ownerId: recipientId, type: kind, data: { ...data }, dedupKey, createdAt: now };
    if (dedupKey === null) {
      await repository.insert(row);
      return { outcome: 'inserted', id: row.id };
    }
    const windowStart = new Date(now.getTime() - this.#deps.dedupWindowMinutes * 60_000);
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      await repository.closeStaleDedup(recipientId, dedupKey, windowStart);
      const id = await repository.insertOrRefresh({ ...row, dedupKey }, windowStart);
      if (id !== null) return id === row.id ? { outcome: 'inserted', id } : { outcome: 'refreshed', id };
    }
    throw new Error(`notification dedup for ${dedupKey} did not settle after ${maxAttempts} attempts`);
  }

  /** Takes the follow notifications between two users out of both feeds (a block between them). */
  async forgetBetween(a: string, b: string): Promise<void> {
    await this.#deps.repository.forgetBetween(a, b);
    await this.#deps.changes.changed(a);
    await this.#deps.changes.changed(b);
  }

  /** Replaces the name frozen in notifications naming this actor (an erased account's anonymous name). */
  renameActor(actorId: string, username: string, displayName: string): Promise<void> {
    return this.#deps.repository.renameActor(actorId, username, displayName);
  }

  /** Marks the notifications naming this actor while others may not see them (banned, being deleted), or clears the mark. */
  setActorHidden(actorId: string, hidden: boolean): Promise<void> {
    return this.#deps.repository.setActorHidden(actorId, hidden);
  }
}
