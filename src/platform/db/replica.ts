/**
 * A PostgreSQL read replica (DATABASE_REPLICA_URL): a streaming standby that a few hot public reads,
 * marked one by one in their repositories (`this.replicaSource`, docs/development.md), may read from.
 * Everything else reads and writes on the primary.
 *
 * A marked read goes to the replica only when all of these hold, else to the primary:
 * - it runs where the request allowed it (`allowIn`: a GET or HEAD of a route, by a viewer who has
 *   not written in the last bound: read-your-writes, recent-writers.ts); never in a job or the CLI;
 * - it is not inside a transaction (Transactions.replica gives the transaction then);
 * - the lag probe found the replica reachable and within the bound at its last look.
 * A marked read that meets the replica unreachable (stopped between two probes) runs again on the
 * primary at once, and the replica is left out until the probe finds it back: users see no error.
 *
 * The lag probe (every quarter of the bound, at most every 2 s) reads the primary's flushed WAL position,
 * then the position the replica has replayed; the lag is the age of the oldest primary position the
 * replica has not replayed yet (0 when it has replayed everything: an idle primary reads as no lag,
 * where `now() - pg_last_xact_replay_timestamp()` would grow forever).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from './database.ts';
import { databaseError, isDatabaseUnavailable, markConnectFailure } from './errors.ts';
import { pgTypeParsers } from './pg-type-parsers.ts';

/** What the replica reports to the operator: its switches in and out of use. */
export interface ReplicaLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface ReplicaOptions {
  /** The replica is left out while its lag exceeds this (DATABASE_REPLICA_MAX_LAG_SECONDS). */
  maxLagMs: number;
  poolSize: number;
  logger: ReplicaLogger;
  /** Between two probes; a quarter of the bound, at most 2 s, unless said. */
  probeIntervalMs?: number;
}

const ignore = () => {};

/** Primary positions kept while the replica is behind (one per probe). */
const maxPositions = 256;

/** A WAL position (`16/B374D848`) as a number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [high = '0', low = '0'] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

type QueryFunction = (...args: unknown[]) => Promise<unknown>;

export class Replica {
  readonly pool: pg.Pool;
  readonly db: Db;
  readonly maxLagMs: number;
  /** One connection to each server for the probe, apart from the pools that serve reads. */
  readonly #probes: { primary: pg.Pool; replica: pg.Pool };
  readonly #logger: ReplicaLogger;
  /** Whether marked reads of this async context may go to the replica (a request's, mutable: noteCommit). */
  readonly #allowed = new AsyncLocalStorage<{ allowed: boolean }>();
  readonly #probeIntervalMs: number;
  /** Primary positions the replica had not replayed at the last probe, oldest first. */
  #unreplayed: { at: number; lsn: bigint }[] = [];
  #inUse = false;
  #lagSeconds: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  #probing: Promise<void> | null = null;
  #closed = false;

  /** `url` the replica's, `primaryUrl` and `primary` the primary's URL and pool (for the fallback). */
  constructor(url: string, primaryUrl: string, primary: pg.Pool, options: ReplicaOptions) {
    const probePool = (connectionString: string) => {
      const pool = new pg.Pool({ connectionString, max: 1, connectionTimeoutMillis: 2000, idleTimeoutMillis: 0 });
      pool.on('connect', (client) => client.on('error', ignore));
      pool.on('error', ignore);
      return pool;
    };
    this.#probes = { primary: probePool(primaryUrl), replica: probePool(url) };
    this.#logger = options.logger;
    this.maxLagMs = options.maxLagMs;
    this.#probeIntervalMs = options.probeIntervalMs ?? Math.min(2000, Math.max(100, options.maxLagMs / 4));
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize,
      types: pgTypeParsers,
      // A replica that cannot be reached is left out quickly: its reads fall back to the primary.
      connectionTimeoutMillis: 2000,
    });
    this.pool.on('connect', (client) => client.on('error', ignore));
    this.pool.on('error', ignore);
    // A read the replica cannot answer (unreachable, stopped, or a statement cancelled by a conflict
    // with recovery) runs again on the primary, and the replica is left out until the next probe.
    const onReplica = this.pool.query.bind(this.pool) as QueryFunction;
    const onPrimary = primary.query.bind(primary) as QueryFunction;
    this.pool.query = (async (...args: unknown[]) => {
      if (!this.#inUse) return onPrimary(...args);
      try {
        return await onReplica(...args);
      } catch (error) {
        // A statement the server refused has its SQLSTATE; one with none never reached it (a refused
        // or broken connection: the driver's own errors).
        const refused = databaseError(error);
        if (refused !== null && !isDatabaseUnavailable(error) && !isRecoveryConflict(error)) throw error;
        markConnectFailure(error);
        this.#leaveOut('unreachable', null);
        return onPrimary(...args);
      }
    }) as typeof this.pool.query;
    this.db = drizzle({ client: this.pool }) as unknown as Db;
  }

  /** Whether marked reads may go to the replica now (reachable, lag within the bound). */
  get inUse(): boolean {
    return this.#inUse;
  }

  /** The lag the last probe measured, in seconds; null when it could not reach both servers. */
  get lagSeconds(): number | null {
    return this.#lagSeconds;
  }

  /** Runs fn where marked reads may go to the replica (a public read of a request: route.ts). */
  allowIn<T>(fn: () => T): T {
    return this.#allowed.run({ allowed: true }, fn);
  }

  /**
   * A transaction committed in this context (Transactions.run): the rest of the request (its after-
   * commit work and subscribers included) reads from the primary, which has what it wrote.
   */
  noteCommit(): void {
    const store = this.#allowed.getStore();
    if (store !== undefined) store.allowed = false;
  }

  /** The replica's handle for a marked read here and now, or null for the primary. */
  current(): Db | null {
    return this.#inUse && this.#allowed.getStore()?.allowed === true ? this.db : null;
  }

  /** Probes at once, then every interval until close. */
  start(): Promise<void> {
    if (this.#timer === null && !this.#closed) {
      this.#timer = setInterval(() => void this.probe(), this.#probeIntervalMs);
      this.#timer.unref();
    }
    return this.probe();
  }

  /** One measure of the lag (one at a time); switches the replica in or out of use. */
  probe(): Promise<void> {
    this.#probing ??= this.#measure().finally(() => {
      this.#probing = null;
    });
    return this.#probing;
  }

  async #measure(): Promise<void> {
    let primaryLsn: bigint;
    let replayedLsn: bigint;
    try {
      const primaryRows = await this.#probes.primary.query<{ lsn: string }>(
        'SELECT pg_current_wal_flush_lsn()::text AS lsn',
      );
      primaryLsn = lsnBytes(primaryRows.rows[0]?.lsn ?? '0/0');
    } catch {
      // The primary is unreachable: nothing can be measured, and nothing is switched.
      return;
    }
    const measuredAt = Date.now();
    try {
      const replicaRows = await this.#probeReplica();
      replayedLsn = lsnBytes(replicaRows ?? '0/0');
    } catch {
      this.#lagSeconds = null;
      this.#leaveOut('unreachable', null);
      return;
    }
    if (this.#closed) return;
    if (replayedLsn < primaryLsn) this.#unreplayed.push({ at: measuredAt, lsn: primaryLsn });
    this.#unreplayed = this.#unreplayed.filter((position) => position.lsn > replayedLsn);
    // A replica stuck for long: every other position goes (the oldest stays, and with it the lag).
    if (this.#unreplayed.length > maxPositions)
      this.#unreplayed = this.#unreplayed.filter((_, index) => index === 0 || index % 2 === 1);
    const oldest = this.#unreplayed[0];
    const lagMs = oldest === undefined ? 0 : Date.now() - oldest.at;
    this.#lagSeconds = lagMs / 1000;
    if (lagMs > this.maxLagMs) this.#leaveOut('lagging', this.#lagSeconds);
    else if (!this.#inUse) {
      this.#inUse = true;
      this.#logger.info(
        { event: 'db.replicaInUse', lagSeconds: this.#lagSeconds },
        'the read replica is in use again for public reads',
      );
    }
  }

  /** The replica's replayed position; a server that is not a standby has none (it is refused). */
  async #probeReplica(): Promise<string | null> {
    const { rows } = await this.#probes.replica.query<{ lsn: string | null; standby: boolean }>(
      'SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS standby',
    );
    const [row] = rows;
    if (row === undefined || !row.standby) throw new Error('DATABASE_REPLICA_URL is not a standby in recovery');
    return row.lsn;
  }

  #leaveOut(reason: 'unreachable' | 'lagging', lagSeconds: number | null): void {
    if (!this.#inUse) return;
    this.#inUse = false;
    this.#logger.warn(
      { event: 'db.replicaLeftOut', reason, lagSeconds, maxLagSeconds: this.maxLagMs / 1000 },
      'the read replica is left out: public reads go to the primary',
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#inUse = false;
    await this.#probing;
    await Promise.all([this.pool.end(), this.#probes.primary.end(), this.#probes.replica.end()]);
  }
}

/** A standby cancelled the statement: it conflicted with WAL being replayed (SQLSTATE 40001 there). */
function isRecoveryConflict(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current.message.includes('conflict with recovery')) return true;
    current = current.cause;
  }
  return false;
}
