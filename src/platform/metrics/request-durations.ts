/**
 * `tms_http_request_duration_seconds`: a histogram of every answer by method, declared route and
 * status, exposed exactly as prom-client's Histogram writes one, but recorded without its work per
 * observation. prom-client's `observe(labels, value)` checks the labels and builds a key string from
 * them at every answer (about 2 µs, the largest part of a ping the service itself owned: docs/
 * benchmarks.md, The per-request work, again); here a route's series are reached from the route's own
 * record (`forRoute`, taken once when the route is registered), then by method and status, and the
 * buckets are summed up at the scrape. The registry reads it as a metric (`getForPromString`, `get`).
 */

export interface RequestDurationLabels {
  method: string;
  route: string;
  status: string;
}

interface Series {
  labels: RequestDurationLabels;
  /** Observations per bucket (not cumulative), by the index of its upper bound. */
  buckets: number[];
  sum: number;
  count: number;
}

/** One exposed value, in prom-client's shape (`sharedLabels` are the series' own, `labels` the bucket's `le`). */
interface ExposedValue {
  metricName: string;
  labels: Record<string, string | number>;
  sharedLabels: RequestDurationLabels;
  value: number;
}

/** The series of one declared route (or of the unmatched requests), by method and status. */
export class RouteDurations {
  readonly #route: string;
  readonly #upperBounds: readonly number[];
  /** By method, then by status code. */
  #series = new Map<string, Map<number, Series>>();

  constructor(route: string, upperBounds: readonly number[]) {
    this.#route = route;
    this.#upperBounds = upperBounds;
  }

  observe(method: string, status: number, seconds: number): void {
    let byStatus = this.#series.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      this.#series.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (series === undefined) {
      series = {
        labels: { method, route: this.#route, status: String(status) },
        buckets: this.#upperBounds.map(() => 0),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
    }
    const bounds = this.#upperBounds;
    for (let index = 0; index < bounds.length; index++) {
      if (seconds <= (bounds[index] as number)) {
        series.buckets[index] = (series.buckets[index] as number) + 1;
        break;
      }
    }
    series.sum += seconds;
    series.count += 1;
  }

  *series(): Iterable<Series> {
    for (const byStatus of this.#series.values()) yield* byStatus.values();
  }

  reset(): void {
    this.#series = new Map();
  }
}

export class RequestDurations {
  readonly name = 'tms_http_request_duration_seconds';
  readonly help = 'HTTP requests by method, declared route pattern and status, and how long each took to answer';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly labelNames = ['method', 'route', 'status'] as const;
  readonly upperBounds: readonly number[];
  readonly #routes = new Map<string, RouteDurations>();

  constructor(upperBounds: readonly number[]) {
    this.upperBounds = [...upperBounds].sort((a, b) => a - b);
  }

  /** The record of a route's series, by its label (the same record for the same label). */
  forRoute(route: string): RouteDurations {
    let durations = this.#routes.get(route);
    if (durations === undefined) {
      durations = new RouteDurations(route, this.upperBounds);
      this.#routes.set(route, durations);
    }
    return durations;
  }

  /** What the registry writes as text: prom-client's Histogram values, bucket by bucket (cumulative), then +Inf, sum and count. */
  getForPromString() {
    const values: ExposedValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const durations of this.#routes.values()) {
      for (const { labels, buckets, sum, count } of durations.series()) {
        let cumulative = 0;
        this.upperBounds.forEach((le, index) => {
          cumulative += buckets[index] as number;
          values.push({ metricName: bucket, labels: { le }, sharedLabels: labels, value: cumulative });
        });
        values.push(
          { metricName: bucket, labels: { le: '+Inf' }, sharedLabels: labels, value: count },
          { metricName: `${this.name}_sum`, labels: {}, sharedLabels: labels, value: sum },
          { metricName: `${this.name}_count`, labels: {}, sharedLabels: labels, value: count },
        );
      }
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same values with every label on each (prom-client's `get`, for JSON). */
  async get() {
    const data = this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ metricName, labels, sharedLabels, value }) => ({
        metricName,
        labels: { ...labels, ...sharedLabels },
        value,
      })),
    };
  }

  reset(): void {
    for (const durations of this.#routes.values()) durations.reset();
  }
}
