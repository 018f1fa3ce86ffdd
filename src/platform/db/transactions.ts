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
 *
 * A failed statement aborts the whole PostgreSQL transaction: after it, every statement fails until
 * the rollback. Code that catches a database error and goes on (a unique violation lost to a racing
 * insert, then a retry or a read of the winner) runs the part that may fail in `attempt`, which is a
 * transaction of its own, or a savepoint inside one; a nested `run` would leave the outer transaction
 * unusable, and `db` refuses it then (TransactionAborted) rather than let the next statement fail.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, DbSource } from './database.ts';
import { databaseError } from './errors.ts';
import { HeldLocks, type LockedKind, type LockOrderViolation } from './lock-order.ts';
import type { Replica } from './replica.ts';

type AfterCommit = () => Promise<void> | void;

interface TransactionState {
  readonly tx: Db;
  readonly afterCommit: AfterCommit[];
  readonly locks: HeldLocks;
  /** A statement failed out of a nested `run`: PostgreSQL refuses every further statement of the transaction. */
  failed?: unknown;
}

/** A statement of a transaction that a failed statement aborted (a database error caught out of a nested `run`). */
export class TransactionAborted extends Error {
  constructor(cause: unknown) {
    super(
      'the transaction was aborted by a failed statement that was caught: run what may fail in transactions.attempt (a savepoint)',
      { cause },
    );
    this.name = 'TransactionAborted';
  }
}

/** Reports an after-commit callback that threw; the transaction has committed, so nothing is undone. */
export type AfterCommitErrorHandler = (error: unknown) => void;

/** What a row locked out of the lock order does (lock-order.ts): by default, it throws. */
export type LockOrderViolationHandler = (violation: LockOrderViolation) => void;

/** A DbSource whose handle is chosen at each statement. */
class RoutedSource implements DbSource {
  readonly #pick: () => Db;
  readonly #active: () => boolean;

  constructor(pick: () => Db, active: () => boolean) {
    this.#pick = pick;
    this.#active = active;
  }

  get db(): Db {
    return this.#pick();
  }

  get active(): boolean {
    return this.#active();
  }
}

const throwViolation: LockOrderViolationHandler = (violation) => {
  throw violation;
};

export class Transactions {
  readonly #storage = new AsyncLocalStorage<TransactionState>();
  readonly #base: Db;
  readonly #onAfterCommitError: AfterCommitErrorHandler;
  readonly #onLockOrderViolation: LockOrderViolationHandler;
  readonly #replica: Replica | null;

  constructor(
    base: Db,
    onAfterCommitError: AfterCommitErrorHandler,
    onLockOrderViolation: LockOrderViolationHandler = throwViolation,
    replica: Replica | null = null,
  ) {
    this.#base = base;
    this.#onAfterCommitError = onAfterCommitError;
    this.#onLockOrderViolation = onLockOrderViolation;
    this.#replica = replica;
  }

  /**
   * Where a read marked replica-safe runs (Repository.replicaSource): the transaction in progress if
   * any, else the read replica when this context allows it and it is in use (replica.ts), else the
   * database itself.
   */
  readonly replica: DbSource = new RoutedSource(
    () => (this.active ? this.db : (this.#replica?.current() ?? this.#base)),
    () => this.active,
  );

  /** The transaction in progress in this async context, else the database itself (one statement each). */
  get db(): Db {
    const state = this.#storage.getStore();
    if (state === undefined) return this.#base;
    if (state.failed !== undefined) throw new TransactionAborted(state.failed);
    return state.tx;
  }

  /** Whether this async context runs inside `run`. */
  get active(): boolean {
    return this.#storage.getStore() !== undefined;
  }

  /** Runs fn in a transaction: the one in progress, or a new one committed when fn resolves. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const state = this.#storage.getStore();
    if (state !== undefined) return this.#joined(state, fn);
    const afterCommit: AfterCommit[] = [];
    const result = await this.#base.transaction((tx) =>
      this.#storage.run({ tx: tx as unknown as Db, afterCommit, locks: new HeldLocks() }, fn),
    );
    this.#replica?.noteCommit();
    for (const callback of afterCommit) {
      try {
        await callback();
      } catch (error) {
        this.#onAfterCommitError(error);
      }
    }
    return result;
  }

  /**
   * Runs fn so that its failure can be caught and the transaction go on: in a transaction of its own,
   * or inside one in a savepoint, rolled back to on failure (with fn's after-commit work and row locks). Nothing of
   * the transaction may run beside it (no Promise.all around it): those statements would be in the savepoint.
   */
  async attempt<T>(fn: () => Promise<T>): Promise<T> {
    const state = this.#storage.getStore();
    if (state === undefined) return this.run(fn);
    const afterCommit: AfterCommit[] = [];
    const locks = state.locks.fork();
    const result = await this.db.transaction((savepoint) =>
      this.#storage.run({ tx: savepoint as unknown as Db, afterCommit, locks }, fn),
    );
    state.afterCommit.push(...afterCommit);
    state.locks.adopt(locks);
    return result;
  }

  /** fn in the transaction in progress; a database error leaving it marks the transaction failed. */
  async #joined<T>(state: TransactionState, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (databaseError(error) !== null) state.failed ??= error;
      throw error;
    }
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
