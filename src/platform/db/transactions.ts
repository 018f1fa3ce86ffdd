/**
 * The one transaction mechanism: the transaction in progress is carried by the async context
 * (AsyncLocalStorage), so repositories read `transactions.db` and join it without being handed it.
 *
 *   await transactions.run(async () => {
 *     await follows.insert(...);          // both statements run in one transaction,
 *     await gamification.award(...);      // whichever area's repository issues them
 *   });
 *
 * `run` inside `run` joins the outer transaction (no savepoint): the outermost call commits or rolls
 * back everything. Work that must not happen unless the transaction commits (mail, push, caches) is
 * registered with `afterCommit`, and runs once the outermost transaction has committed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './database.ts';
import { HeldLocks, type LockedKind, type LockOrderViolation } from './lock-order.ts';

type AfterCommit = () => Promise<void> | void;

interface TransactionState {
  readonly tx: Db;
  readonly afterCommit: AfterCommit[];
  readonly locks: HeldLocks;
}

/** Reports an after-commit callback that threw; the transaction has committed, so nothing is undone. */
export type AfterCommitErrorHandler = (error: unknown) => void;

/** What a row locked out of the lock order does (lock-order.ts): by default, it throws. */
export type LockOrderViolationHandler = (violation: LockOrderViolation) => void;

const throwViolation: LockOrderViolationHandler = (violation) => {
  throw violation;
};

export class Transactions {
  readonly #storage = new AsyncLocalStorage<TransactionState>();
  readonly #base: Db;
  readonly #onAfterCommitError: AfterCommitErrorHandler;
  readonly #onLockOrderViolation: LockOrderViolationHandler;

  constructor(
    base: Db,
    onAfterCommitError: AfterCommitErrorHandler,
    onLockOrderViolation: LockOrderViolationHandler = throwViolation,
  ) {
    this.#base = base;
    this.#onAfterCommitError = onAfterCommitError;
    this.#onLockOrderViolation = onLockOrderViolation;
  }

  /** The transaction in progress in this async context, else the database itself (one statement each). */
  get db(): Db {
    return this.#storage.getStore()?.tx ?? this.#base;
  }

  /** Whether this async context runs inside `run`. */
  get active(): boolean {
    return this.#storage.getStore() !== undefined;
  }

  /** Runs fn in a transaction: the one in progress, or a new one committed when fn resolves. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active) return fn();
    const afterCommit: AfterCommit[] = [];
    const result = await this.#base.transaction((tx) =>
      this.#storage.run({ tx: tx as unknown as Db, afterCommit, locks: new HeldLocks() }, fn),
    );
    for (const callback of afterCommit) {
      try {
        await callback();
      } catch (error) {
        this.#onAfterCommitError(error);
      }
    }
    return result;
  }

  /** Notes a row lock about to be taken in the transaction in progress (none outside one): see lock-order.ts. */
  noteRowLock(kind: LockedKind, id: string): void {
    const violation = this.#storage.getStore()?.locks.take(kind, id);
    if (violation) this.#onLockOrderViolation(violation);
  }

  /** Runs fn once the transaction in progress commits (never if it rolls back); at once outside one. */
  async afterCommit(fn: AfterCommit): Promise<void> {
    const state = this.#storage.getStore();
    if (state) {
      state.afterCommit.push(fn);
      return;
    }
    try {
      await fn();
    } catch (error) {
      this.#onAfterCommitError(error);
    }
  }
}
