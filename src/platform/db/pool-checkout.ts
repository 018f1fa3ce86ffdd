/**
 * The PostgreSQL pool and how a connection is checked out of it, timed only when it must wait.
 *
 * pg-pool's own `connectionTimeoutMillis` arms a timer (setTimeout, unref, clearTimeout) at every
 * checkout, even when an idle connection is at hand: about 12 k instructions each, the largest piece
 * of a ping the service paid beyond its floor twin (docs/benchmarks.md, Session 53). So the pool runs
 * without it, and the same bounds are kept another way:
 * - a new connection is bounded by the client's own connection timeout (each client is made with
 *   it); its failure reads as pg-pool's did ("Connection terminated due to connection timeout");
 * - a checkout that must wait for a busy pool (every connection out, none can be opened) is timed
 *   here and fails with pg-pool's message ("timeout exceeded when trying to connect"); a connection
 *   handed over after that goes back to the pool at once;
 * - a checkout that an idle connection serves, or that opens a new one, arms no timer.
 * Every failure to connect is marked as one (errors.ts: it answers 503 databaseUnavailable).
 */
import pg from 'pg';
import { markConnectFailure } from './errors.ts';

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  release: (release?: boolean | Error) => void,
) => void;

/** pg's error when a client's own connection timeout ends its attempt. */
const clientTimeoutMessage = 'timeout expired';

/** A failure to connect, as the rest of the service reads it. */
function connectFailure(error: unknown): unknown {
  const failure =
    error instanceof Error && error.message === clientTimeoutMessage
      ? new Error('Connection terminated due to connection timeout', { cause: error })
      : error;
  markConnectFailure(failure);
  return failure;
}

/** A pool whose connections are opened within `connectTimeoutMs`, and checked out as described above. */
export function openPool(config: Omit<pg.PoolConfig, 'connectionTimeoutMillis'>, connectTimeoutMs: number): pg.Pool {
  // pg-pool hands its own options to each client it makes: the timeout goes to the clients alone.
  class TimedClient extends pg.Client {
    constructor(options: pg.ClientConfig) {
      super({ ...options, connectionTimeoutMillis: connectTimeoutMs });
    }
  }
  const pool = new pg.Pool({ ...config, Client: TimedClient as unknown as new () => pg.ClientBase });
  const max = config.max ?? 10;
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;

  /** Whether a checkout now waits for another's connection (none idle for it, and none can be opened). */
  const mustWait = () => pool.idleCount <= pool.waitingCount && pool.totalCount >= max;

  const checkout = (): Promise<pg.PoolClient> => {
    if (!mustWait()) return connect().catch((error: unknown) => Promise.reject(connectFailure(error)));
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(connectFailure(new Error('timeout exceeded when trying to connect')));
      }, connectTimeoutMs);
      connect().then(
        (client) => {
          clearTimeout(timer);
          if (timedOut) client.release();
          else resolve(client);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (!timedOut) reject(connectFailure(error));
        },
      );
    });
  };

  // pool.query checks out with a callback, transactions with a promise: both go through `checkout`.
  pool.connect = ((callback?: ConnectCallback) => {
    if (!callback) return checkout();
    checkout().then(
      (client) => callback(undefined, client, client.release.bind(client)),
      (error: Error) => callback(error, undefined, () => {}),
    );
    return undefined;
  }) as typeof pool.connect;
  return pool;
}
