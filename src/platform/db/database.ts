/**
 * One database interface over two engines: embedded PGlite (PostgreSQL compiled to WASM) and a real
 * PostgreSQL server through `pg`. Same SQL, same migrations, same Drizzle query builder.
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { KeyedMutex } from './keyed-mutex.ts';

// biome-ignore lint/suspicious/noExplicitAny: the schema generic is unused (we query with explicit tables)
export type Db = PgDatabase<PgQueryResultHKT, any>;

/** A plain connection for what Drizzle does not cover: multi-statement migration scripts. */
export interface RawConnection {
  exec(sqlText: string): Promise<void>;
  query<T = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<T[]>;
  transaction<T>(fn: (conn: RawConnection) => Promise<T>): Promise<T>;
}

/** Keys of the PostgreSQL advisory locks the service takes; one number per singleton activity. */
export const LockKey = {
  migrations: 7_100_001,
  testTemplate: 7_100_002,
  notificationsPush: 7_100_101,
  describeQueue: 7_100_102,
  searchIndex: 7_100_103,
  stats: 7_100_104,
} as const;
export type LockName = keyof typeof LockKey;

export interface Database {
  readonly engine: 'pglite' | 'postgres';
  readonly db: Db;
  /** Runs fn while holding the named lock across every instance, waiting for it if needed. */
  withLock<T>(name: LockName, fn: (conn: RawConnection) => Promise<T>): Promise<T>;
  /** Runs fn only if the named lock is free right now; otherwise returns { ran: false } at once. */
  tryWithLock<T>(name: LockName, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  close(): Promise<void>;
}

/**
 * The in-process half of every lock. PGlite has a single session, on which advisory locks never
 * block, so the mutex is the whole lock there; on PostgreSQL it saves a round trip within one process.
 */
export const processLocks = new KeyedMutex();
