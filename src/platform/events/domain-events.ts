/**
 * Typed domain events: what happened in one area, for the others to react to without the producer
 * knowing them (follows publish `follow.created`; notifications and gamification subscribe).
 *
 * Each area declares its events by augmenting `DomainEvents` in its own `events.ts`:
 *
 *   declare module '../../platform/events/domain-events.ts' {
 *     interface DomainEvents { 'follow.created': { followerId: string; followeeId: string } }
 *   }
 *
 * `publish` runs inside the producer's transaction. `inTransaction` subscribers run there and then, in
 * subscription order, on the same transaction (an error rolls the whole change back); `afterCommit`
 * subscribers (mail, push, caches) run once it commits, and their errors are logged, never undo it;
 * `subscribeRetried` ones (derived tables kept after commit) are also tried again until they succeed
 * (after-commit-retries.ts).
 */
import type { Transactions } from '../db/transactions.ts';
import type { AfterCommitRetries, RetriedWork } from './after-commit-retries.ts';

// biome-ignore lint/suspicious/noEmptyInterface: areas add their events to it (declaration merging)
export interface DomainEvents {}
export type DomainEventName = keyof DomainEvents;

export type Phase = 'inTransaction' | 'afterCommit';
export type Subscriber<N extends DomainEventName> = (payload: DomainEvents[N]) => Promise<void> | void;

interface Subscription {
  /** Who subscribes, for logs: `<area>.<what it does>`. */
  name: string;
  phase: Phase;
  handler: Subscriber<DomainEventName>;
}

export type SubscriberErrorHandler = (error: unknown, event: DomainEventName, subscriber: string) => void;

export class EventBus {
  readonly #subscriptions = new Map<DomainEventName, Subscription[]>();
  readonly #transactions: Transactions;
  readonly #onAfterCommitError: SubscriberErrorHandler;
  readonly #retries: AfterCommitRetries | null;

  constructor(
    transactions: Transactions,
    onAfterCommitError: SubscriberErrorHandler,
    retries: AfterCommitRetries | null = null,
  ) {
    this.#transactions = transactions;
    this.#onAfterCommitError = onAfterCommitError;
    this.#retries = retries;
  }

  /**
   * `first` puts the subscriber before those already there: for one that must read what the others
   * delete (federation sends an erased account's `Delete` to its remote followers before follows
   * erases them).
   */
  subscribe<N extends DomainEventName>(
    event: N,
    phase: Phase,
    name: string,
    handler: Subscriber<N>,
    options: { first?: boolean } = {},
  ): void {
    const list = this.#subscriptions.get(event) ?? [];
    if (list.some((subscription) => subscription.name === name)) {
      throw new Error(`${name} subscribes to ${String(event)} twice`);
    }
    const subscription = { name, phase, handler: handler as Subscriber<DomainEventName> };
    if (options.first === true) list.unshift(subscription);
    else list.push(subscription);
    this.#subscriptions.set(event, list);
  }

  /**
   * An after-commit subscriber whose work is keyed and idempotent (it reads again what it brings up to
   * date): run on the key of each event once it commits and, when that fails, filed under `name` and
   * run again by the job after-commit-retries until it succeeds (a failure filed is logged as a
   * warning, one that could not be filed as an error). Events that need the same work share its name
   * and function; the name is kept in the database (after-commit-retries.ts): what waits under a
   * renamed one fails as an unknown work until it is given up.
   */
  subscribeRetried<N extends DomainEventName>(
    event: N,
    name: string,
    keyOf: (payload: DomainEvents[N]) => string,
    work: RetriedWork,
  ): void {
    const retries = this.#retries;
    retries?.register(name, work);
    this.subscribe(event, 'afterCommit', name, async (payload) => {
      const key = keyOf(payload);
      try {
        await work(key);
      } catch (error) {
        if (!(await retries?.file(name, key, error))) throw error;
      }
    });
  }

  /** Forgets the retries waiting under this work and key, in the caller's transaction (an erased user's). */
  forgetRetries(name: string, key: string): Promise<void> {
    return this.#retries?.forget(name, key) ?? Promise.resolve();
  }

  /** Publishes inside the caller's transaction (opening one if none is in progress). */
  async publish<N extends DomainEventName>(event: N, payload: DomainEvents[N]): Promise<void> {
    const subscriptions = this.#subscriptions.get(event) ?? [];
    await this.#transactions.run(async () => {
      for (const subscription of subscriptions) {
        if (subscription.phase === 'inTransaction') {
          await subscription.handler(payload);
          continue;
        }
        await this.#transactions.afterCommit(async () => {
          try {
            await subscription.handler(payload);
          } catch (error) {
            this.#onAfterCommitError(error, event, subscription.name);
          }
        });
      }
    });
  }

  /** Who subscribes to what, for the docs and the start-up log. */
  subscribers(): Array<{ event: DomainEventName; phase: Phase; subscriber: string }> {
    return [...this.#subscriptions].flatMap(([event, list]) =>
      list.map(({ phase, name }) => ({ event, phase, subscriber: name })),
    );
  }
}
