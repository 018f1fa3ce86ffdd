/**
 * This instance's Prometheus metrics (prom-client), in a registry of its own per app: what the
 * platform records as it happens (requests, job runs, mails, pushes) and gauges read at each scrape
 * from what their owners keep (pool, queues, caches, the render queue). Served by the metrics server
 * on its own port (metrics-server.ts), never on the public one; docs/operations.md, Metrics, lists
 * every series.
 *
 * Only an instance that serves them records them (METRICS_PORT set): elsewhere nothing could ever
 * read them, so prom-client is not even loaded (a start's CPU and memory; docs/benchmarks.md,
 * Start-up) and every recording is a no-op.
 */
import { createRequire } from 'node:module';
import type { Counter, Gauge, Metric, Registry } from 'prom-client';
import { RequestDurations } from './request-durations.ts';

/** prom-client (CommonJS), required when metrics are recorded: the platform is built synchronously. */
const promClient = (): typeof import('prom-client') => createRequire(import.meta.url)('prom-client');

/** One labelled value of a gauge or counter read at scrape time. */
export interface Sample<L extends string> {
  labels: Record<L, string>;
  value: number;
}

type Read<L extends string> = () => Sample<L>[] | Promise<Sample<L>[]>;

/** A `collect` that empties the metric, then writes every sample its owner gives now. */
function refill<L extends string, M extends { reset(): void }>(
  read: Read<L>,
  write: (metric: M, sample: Sample<L>) => void,
) {
  return async function collect(this: M) {
    this.reset();
    for (const sample of await read()) write(this, sample);
  };
}

/** How a job run ended: `retry` when it returned a report its job flags as leaving work to retry. */
export type JobRunOutcome = 'completed' | 'retry' | 'failed';
/** What became of one attempt to send a mail: sent, failed and waiting for a later attempt, or given up. */
export type MailAttemptResult = 'sent' | 'retryLater' | 'givenUp';
/** What became of one push: delivered, failed retryably (tried again), or failed for good. */
export type PushResultLabel = 'sent' | 'retryLater' | 'failed';

/** A series recorded as things happen; with metrics off, a no-op. */
interface Observed<L extends string> {
  observe(labels: Record<L, string>, value: number): void;
}
interface Counted<L extends string> {
  inc(labels: Record<L, string>, value?: number): void;
}
const ignored = { observe() {}, inc() {} };

export class Metrics {
  /** Whether this instance records its metrics: only when it serves them (config.metrics). */
  readonly recording: boolean;
  readonly #registry: Registry | null;
  /** Every answer by method, declared route and status (request-durations.ts: recorded without prom-client's work per answer). */
  readonly httpRequests = new RequestDurations([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]);
  readonly jobRuns: Observed<'job' | 'outcome'> = ignored;
  readonly mails: Counted<'kind' | 'result'> = ignored;
  readonly pushes: Counted<'result'> = ignored;
  #processMetrics = false;

  constructor(options: { recording: boolean }) {
    this.recording = options.recording;
    if (!options.recording) {
      this.#registry = null;
      return;
    }
    const { Counter, Histogram, Registry } = promClient();
    const registry = new Registry();
    this.#registry = registry;
    // The registry reads a metric through `get`/`getForPromString`, which RequestDurations has in prom-client's shape.
    registry.registerMetric(this.httpRequests as unknown as Metric);
    this.jobRuns = new Histogram({
      name: 'tms_job_run_duration_seconds',
      help: 'Job runs in this process (queued and on demand) by job and outcome, and how long each took',
      labelNames: ['job', 'outcome'] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900],
      registers: [registry],
    });
    this.mails = new Counter({
      name: 'tms_mail_attempts_total',
      help: 'Mails handed to the mail server by kind and result (sent, retryLater: failed and waiting, givenUp)',
      labelNames: ['kind', 'result'] as const,
      registers: [registry],
    });
    this.pushes = new Counter({
      name: 'tms_push_attempts_total',
      help: 'Pushes handed to the push provider by result (sent, retryLater: failed retryably, failed)',
      labelNames: ['result'] as const,
      registers: [registry],
    });
  }

  /** A gauge whose values are read from their owner at each scrape. */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[], read: Read<L>): void {
    if (this.#registry === null) return;
    const collect = refill(read, (gauge: Gauge<L>, one) => gauge.set(one.labels, one.value));
    new (promClient().Gauge)({ name, help, labelNames, registers: [this.#registry], collect });
  }

  /** A counter whose running totals are kept by their owner (a cache's hits), read at each scrape. */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[], read: Read<L>): void {
    if (this.#registry === null) return;
    const collect = refill(read, (counter: Counter<L>, one) => counter.inc(one.labels, one.value));
    new (promClient().Counter)({ name, help, labelNames, registers: [this.#registry], collect });
  }

  /**
   * prom-client's process metrics: memory, CPU, handles, garbage collection, and event-loop lag
   * (`nodejs_eventloop_lag_seconds` and its percentiles). Started by the server that serves them
   * only: the event-loop monitor and the GC observer cost a little on every tick and every collection.
   */
  collectProcessMetrics(): void {
    if (this.#processMetrics || this.#registry === null) return;
    this.#processMetrics = true;
    promClient().collectDefaultMetrics({ register: this.#registry, eventLoopMonitoringPrecision: 20 });
  }

  /** The exposition: Prometheus text format, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    if (this.#registry === null) throw new Error('metrics are recorded only with METRICS_PORT set');
    return { contentType: this.#registry.contentType, body: await this.#registry.metrics() };
  }
}
