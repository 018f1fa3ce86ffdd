/**
 * The base of every repository: its statements run on the transaction in progress in the async
 * context, or on the database itself outside one (see transactions.ts).
 */
import type { Db, DbSource } from './database.ts';
import type { LockedKind } from './lock-order.ts';

export abstract class Repository {
  readonly #source: DbSource;

  constructor(source: DbSource) {
    this.#source = source;
  }

  /** Where the statements run; prepared statements (PreparedPage) are built on it. */
  protected get source(): DbSource {
    return this.#source;
  }

  /**
   * For a read marked replica-safe: a public read that may be a few seconds stale (never a viewer's
   * own data, never a read a write depends on). It runs on the read replica when the request allows it
   * and the replica is in use, else as any other read (docs/development.md, Reads from the replica).
   */
  protected get replicaSource(): DbSource {
    return this.#source.replica ?? this.#source;
  }

  /** The Drizzle handle of `replicaSource` for this statement. */
  protected get replicaDb(): Db {
    return this.replicaSource.db;
  }

  /** The transaction in progress in this async context, else the database. */
  protected get db(): Db {
    return this.#source.db;
  }

  /** Call before a statement that locks a row of a kind the lock order names (lock-order.ts). */
  protected noteRowLock(kind: LockedKind, id: string): void {
    this.#source.noteRowLock?.(kind, id);
  }
}
