/**
 * This instance's Prometheus metrics (prom-client), in a registry of its own per app: what the
 * platform records as it happens (requests, job runs, mails, pushes) and gauges read at each scrape
 * from what their owners keep (pool, queues, caches, the render queue). Served by the metrics server
 * on its own port (metrics-server.ts), never on the public one; docs/operations.md, Metrics, lists
 * every series.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import { RequestDurations } from './request-durations.ts';

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

export class Metrics {
  readonly registry = new Registry();
  /** Every answer by method, declared route and status (request-durations.ts: recorded without prom-client's work per answer). */
  readonly httpRequests = new RequestDurations([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]);
  readonly jobRuns = new Histogram({
    name: 'tms_job_run_duration_seconds',
    help: 'Job runs in this process (queued and on demand) by job and outcome, and how long each took',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900],
    registers: [this.registry],
  });
  readonly mails = new Counter({
    name: 'tms_mail_attempts_total',
    help: 'Mails handed to the mail server by kind and result (sent, retryLater: failed and waiting, givenUp)',
    labelNames: ['kind', 'result'] as const,
    registers: [this.registry],
  });
  readonly pushes = new Counter({
    name: 'tms_push_attempts_total',
    help: 'Pushes handed to the push provider by result (sent, retryLater: failed retryably, failed)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  #processMetrics = false;

  constructor() {
    // The registry reads a metric through `get`/`getForPromString`, which RequestDurations has in prom-client's shape.
    this.registry.registerMetric(this.httpRequests as unknown as Metric);
  }

  /** A gauge whose values are read from their owner at each scrape. */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[], read: Read<L>): void {
    const collect = refill(read, (gauge: Gauge<L>, one) => gauge.set(one.labels, one.value));
    new Gauge({ name, help, labelNames, registers: [this.registry], collect });
  }

  /** A counter whose running totals are kept by their owner (a cache's hits), read at each scrape. */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[], read: Read<L>): void {
    const collect = refill(read, (counter: Counter<L>, one) => counter.inc(one.labels, one.value));
    new Counter({ name, help, labelNames, registers: [this.registry], collect });
  }

  /**
   * prom-client's process metrics: memory, CPU, handles, garbage collection, and event-loop lag
   * (`nodejs_eventloop_lag_seconds` and its percentiles). Started by the server that serves them
   * only: the event-loop monitor and the GC observer cost a little on every tick and every collection.
   */
  collectProcessMetrics(): void {
    if (this.#processMetrics) return;
    this.#processMetrics = true;
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
  }

  /** The exposition: Prometheus text format, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
