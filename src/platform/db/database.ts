/**
 * One database interface over two engines: embedded PGlite (PostgreSQL compiled to WASM) and a real
 * PostgreSQL server through `pg`. Same SQL, same migrations, same Drizzle query builder.
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Db as JobsDb } from 'pg-boss';
import { KeyedMutex } from './keyed-mutex.ts';
import type { LockedKind } from './lock-order.ts';

// biome-ignore lint/suspicious/noExplicitAny: the schema generic is unused (we query with explicit tables)
export type Db = PgDatabase<PgQueryResultHKT, any>;

/**
 * Where a repository gets its Drizzle handle: `Transactions` gives the transaction in progress in the
 * async context, else the database. Repositories hold a DbSource, never a Db.
 */
export interface DbSource {
  readonly db: Db;
  /** Whether `db` is a transaction in progress (prepared statements are then prepared on it). */
  readonly active?: boolean;
  /** Notes a row lock about to be taken, to check the lock order (lock-order.ts). */
  noteRowLock?(kind: LockedKind, id: string): void;
  /** Where reads marked replica-safe run: the read replica when it may serve them (replica.ts). */
  readonly replica?: DbSource;
}

/** A plain connection for what Drizzle does not cover: multi-statement migration scripts. */
export interface RawConnection {
  exec(sqlText: string): Promise<void>;
  query<T = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<T[]>;
  transaction<T>(fn: (conn: RawConnection) => Promise<T>): Promise<T>;
}

/**
 * Keys of the PostgreSQL advisory locks the service takes. Only migrations take one at run time, on a
 * connection of their own (never a pooled one, so a transaction-mode pooler stays safe); jobs rely on
 * pg-boss and on conditional updates instead.
 */
export const LockKey = {
  migrations: 7_100_001,
  testTemplate: 7_100_002,
} as const;

export interface Database {
  readonly engine: 'pglite' | 'postgres';
  readonly db: Db;
  /**
   * Runs fn on a connection of its own holding the migrations lock across every instance, waiting for
   * it if needed. On PostgreSQL the connection goes to DATABASE_MIGRATION_URL when set (a direct URL
   * past a pooler), and is closed afterwards.
   */
  withMigrationLock<T>(fn: (conn: RawConnection) => Promise<T>): Promise<T>;
  /** The same database as pg-boss's driver, sharing this pool (or PGlite's single session). */
  jobsDatabase(): Promise<JobsDb>;
  close(): Promise<void>;
}

/**
 * The in-process half of the migrations lock. PGlite has a single session, on which advisory locks
 * never block, so the mutex is the whole lock there; on PostgreSQL it saves a connection per process.
 */
export const processLocks = new KeyedMutex();
