/**
 * Operational statistics for GET /admin/stats: a registry that areas add their counters to, and the
 * snapshot of all of them, kept `statsSnapshot.seconds` per instance and computed once at a time
 * (concurrent callers share the computation), so calling the route often costs nothing.
 *
 * - `register(name, provider)`: a kind of row (users, media, comments…): `provider(since)` counts them
 *   all and those created since each rolling window's start (see createdCounts, one statement).
 * - `registerBacklog(name, provider)`: work waiting (the describe queue's pending media, the
 *   notifications waiting for push): one number, also read at each scrape of `/metrics`.
 * - pg-boss's queues (queued and active per job) come from the job runner.
 */
import { TtlCache } from '../cache/ttl-cache.ts';
import type { Clock } from '../clock.ts';

/** Starts of the rolling windows, from the injected clock: 24 hours, 7 days and 30 days before `now`. */
export interface StatsSince {
  now: Date;
  day: Date;
  week: Date;
  month: Date;
}

/**
 * All rows of a kind and those created since each window's start. A provider may add figures of its
 * own (reports add `open`): every integer it returns is shown.
 */
export interface CreatedCounts {
  total: number;
  day: number;
  week: number;
  month: number;
}

export type StatsProvider = (since: StatsSince) => Promise<CreatedCounts>;
export type BacklogProvider = () => Promise<number>;

export interface JobDepth {
  queued: number;
  active: number;
}

export interface StatsSnapshot {
  computedAt: Date;
  since: StatsSince;
  counts: Record<string, CreatedCounts>;
  backlogs: Record<string, number>;
  /** Per job name; null when this instance does not run the job queue (e.g. the CLI). */
  jobs: Record<string, JobDepth> | null;
}

export const statsSnapshot = { seconds: 45 } as const;

const dayMs = 86_400_000;

export class Stats {
  readonly #providers = new Map<string, StatsProvider>();
  readonly #backlogs = new Map<string, BacklogProvider>();
  /** The snapshot under one key; registered as the cache `stats`, so a purge drops it. */
  readonly cache: TtlCache<'snapshot', StatsSnapshot>;
  #computing: Promise<StatsSnapshot> | null = null;
  private readonly clock: Clock;
  private readonly jobDepths: () => Promise<Record<string, JobDepth> | null>;

  constructor(clock: Clock, jobDepths: () => Promise<Record<string, JobDepth> | null>) {
    this.clock = clock;
    this.jobDepths = jobDepths;
    this.cache = new TtlCache(clock, statsSnapshot.seconds * 1000, 1);
  }

  register(name: string, provider: StatsProvider): void {
    if (this.#providers.has(name)) throw new Error(`stats ${name} registered twice`);
    this.#providers.set(name, provider);
  }

  registerBacklog(name: string, provider: BacklogProvider): void {
    if (this.#backlogs.has(name)) throw new Error(`backlog ${name} registered twice`);
    this.#backlogs.set(name, provider);
  }

  /** The snapshot of at most statsSnapshot.seconds ago. */
  snapshot(): Promise<StatsSnapshot> {
    const cached = this.cache.get('snapshot');
    return cached !== undefined ? Promise.resolve(cached) : this.#compute();
  }

  /** A snapshot computed now (the `stats` job): it replaces the kept one. */
  async refresh(): Promise<StatsSnapshot> {
    // A computation already running started before this call: wait for it, then compute anew.
    await this.#computing?.catch(() => undefined);
    return this.#compute();
  }

  #compute(): Promise<StatsSnapshot> {
    this.#computing ??= this.#take()
      .then((snapshot) => {
        this.cache.set('snapshot', snapshot);
        return snapshot;
      })
      .finally(() => {
        this.#computing = null;
      });
    return this.#computing;
  }

  /** One provider after the other: a few cheap statements, never a burst of connections. */
  async #take(): Promise<StatsSnapshot> {
    const now = this.clock.now();
    const since = {
      now,
      day: new Date(now.getTime() - dayMs),
      week: new Date(now.getTime() - 7 * dayMs),
      month: new Date(now.getTime() - 30 * dayMs),
    };
    const counts: Record<string, CreatedCounts> = {};
    for (const [name, provider] of [...this.#providers].sort(([a], [b]) => a.localeCompare(b))) {
      counts[name] = await provider(since);
    }
    return { computedAt: now, since, counts, backlogs: await this.backlogs(), jobs: await this.jobDepths() };
  }

  /**
   * Every backlog read now, one after the other, by name (the snapshot's, and each scrape of
   * `/metrics`'s `tms_backlog_items`): each is one count on a partial index or a small table. A
   * backlog that fails throws, or with `unread`, is told to it and left out.
   */
  async backlogs(unread?: (name: string, error: unknown) => void): Promise<Record<string, number>> {
    const backlogs: Record<string, number> = {};
    for (const [name, provider] of [...this.#backlogs].sort(([a], [b]) => a.localeCompare(b))) {
      try {
        backlogs[name] = await provider();
      } catch (error) {
        if (unread === undefined) throw error;
        unread(name, error);
      }
    }
    return backlogs;
  }
}
