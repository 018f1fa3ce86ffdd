/**
 * Maintenance mode, shared by every instance on the database: the state is one row (maintenance_state),
 * and each instance re-reads it every second on a timer (`watch`), so a change made on one instance is
 * seen by the others within about a second, and requests read the state in memory. The instance that
 * makes the change sees it at once.
 * The timer runs in real time, not on the injected clock: it bounds how stale the state may be, it is
 * not a time the service reasons about.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AuditLog } from '../audit/audit-log.ts';
import type { Clock } from '../clock.ts';
import type { Transactions } from '../db/transactions.ts';
import { MaintenanceRepository, type MaintenanceSettings } from './maintenance.repository.ts';

export type { MaintenanceSettings } from './maintenance.repository.ts';

export const maintenanceLimits = {
  messageLength: 500,
  retryAfterSeconds: { minimum: 1, maximum: 86_400, default: 300 },
  refreshMs: 1000,
} as const;

export interface MaintenanceChange {
  enabled: boolean;
  message: string | null;
  retryAfterSeconds: number;
}

const off: MaintenanceSettings = { enabled: false, message: null, retryAfterSeconds: 300, updatedAt: null };

export class MaintenanceMode {
  #known: MaintenanceSettings | null = null;
  #reading: Promise<MaintenanceSettings> | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  /** Moves on each local change, so a read that started before it cannot bring the old state back. */
  #generation = 0;
  private readonly repository: MaintenanceRepository;
  private readonly transactions: Transactions;
  private readonly audit: AuditLog;
  private readonly clock: Clock;
  private readonly logger: FastifyBaseLogger;

  constructor(transactions: Transactions, audit: AuditLog, clock: Clock, logger: FastifyBaseLogger) {
    this.repository = new MaintenanceRepository(transactions);
    this.transactions = transactions;
    this.audit = audit;
    this.clock = clock;
    this.logger = logger;
  }

  /**
   * The state as last read: once the instance has read it, a request never waits on the database (a
   * held or slow database must not hold every request up); the timer of `watch` keeps it at most a
   * second or so old. Only an instance's very first request waits for the first read.
   */
  current(): Promise<MaintenanceSettings> {
    if (this.#known !== null) return Promise.resolve(this.#known);
    return this.#refreshOnce();
  }

  /** The state as last read, or null before the first read (then `current` waits for it). */
  known(): MaintenanceSettings | null {
    return this.#known;
  }

  /** Re-reads the state every refreshMs until `unwatch` (the server's lifetime). */
  watch(): void {
    if (this.#timer !== null) return;
    void this.#refreshOnce();
    this.#timer = setInterval(() => void this.#refreshOnce(), maintenanceLimits.refreshMs);
    this.#timer.unref();
  }

  unwatch(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** One read at a time: a read still running (a slow database) is joined, not doubled. */
  #refreshOnce(): Promise<MaintenanceSettings> {
    this.#reading ??= this.#refresh().finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  /** Reads the row now, as an operator asking for it expects. */
  async read(): Promise<MaintenanceSettings> {
    return this.#refresh();
  }

  /** Sets the state and audits it in one transaction; this instance applies it at once. */
  async set(change: MaintenanceChange): Promise<MaintenanceSettings> {
    const saved = await this.transactions.run(async () => {
      const row = await this.repository.write({ ...change, updatedAt: this.clock.now() });
      await this.audit.record({
        actor: 'admin',
        action: 'maintenance.set',
        targetType: 'maintenance',
        payload: { ...change },
      });
      return row;
    });
    this.#generation += 1;
    this.#known = saved;
    return saved;
  }

  async #refresh(): Promise<MaintenanceSettings> {
    const generation = this.#generation;
    try {
      const row = await this.repository.read();
      if (generation !== this.#generation) return this.#known ?? row;
      this.#known = row;
      return row;
    } catch (error) {
      // An unreadable state must not fail every request: keep the last known one (or "off") for a second.
      this.logger.warn({ event: 'maintenance.readFailed', err: error }, 'maintenance state not read');
      this.#known ??= off;
      return this.#known;
    }
  }
}
