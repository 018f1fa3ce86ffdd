/**
 * The one order in which a transaction locks the rows several writers lock (docs/development.md, "Lock
 * order is code"): users before media. A write takes its locks through one helper (media's
 * `lockForWrite`: the users it changes, ascending id, then the media), and every explicit row lock
 * notes itself here (`Transactions.noteRowLock`), so a lock of a user taken after a media in one
 * transaction is caught: thrown outside production, logged in production (build-areas.ts).
 */

/** The kinds of rows locked, in the order a transaction takes them. */
export const lockOrder = ['user', 'media'] as const;
export type LockedKind = (typeof lockOrder)[number];

const rank = (kind: LockedKind) => lockOrder.indexOf(kind);

/** A row locked after a row of a kind that comes later in the lock order. */
export class LockOrderViolation extends Error {
  constructor(kind: LockedKind, id: string, after: { kind: LockedKind; id: string }) {
    super(`${kind} ${id} locked after ${after.kind} ${after.id}: the lock order is ${lockOrder.join(', then ')}`);
    this.name = 'LockOrderViolation';
  }
}

/** The row locks one transaction has taken. */
export class HeldLocks {
  readonly #held = new Set<string>();
  #latest: { kind: LockedKind; id: string } | null = null;

  /**
   * Notes a lock about to be taken; returns the violation when a row of a later kind is already held.
   * Locking a row held already waits for nothing, so it never violates.
   */
  take(kind: LockedKind, id: string): LockOrderViolation | null {
    const key = `${kind}:${id}`;
    if (this.#held.has(key)) return null;
    this.#held.add(key);
    const latest = this.#latest;
    if (latest !== null && rank(kind) < rank(latest.kind)) return new LockOrderViolation(kind, id, latest);
    this.#latest = { kind, id };
    return null;
  }

  /** The locks of a savepoint: these and what it takes, the transaction's only once it is kept (adopt). */
  fork(): HeldLocks {
    const copy = new HeldLocks();
    for (const key of this.#held) copy.#held.add(key);
    copy.#latest = this.#latest;
    return copy;
  }

  /** Keeps what a savepoint took (a savepoint rolled back to releases its locks: its fork is dropped). */
  adopt(kept: HeldLocks): void {
    for (const key of kept.#held) this.#held.add(key);
    this.#latest = kept.#latest;
  }
}
