/**
 * RequestDurations is exposed as prom-client's Histogram exposes the same observations: the same
 * lines in Prometheus' text and the same values as JSON.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Histogram, type Metric, Registry } from 'prom-client';
import { RequestDurations } from './request-durations.ts';

const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const observations = [
  { method: 'GET', route: '/api/ping', status: 200, seconds: 0.0004 },
  { method: 'GET', route: '/api/ping', status: 200, seconds: 0.012 },
  { method: 'GET', route: '/api/ping', status: 200, seconds: 0.01 },
  { method: 'HEAD', route: '/api/ping', status: 200, seconds: 0.3 },
  { method: 'GET', route: '/api/users/{userId}', status: 404, seconds: 2.6 },
  { method: 'POST', route: '/api/auth/login', status: 401, seconds: 45 },
  { method: 'GET', route: 'unmatched', status: 404, seconds: 0.001 },
];

function both() {
  const ours = new RequestDurations(buckets);
  const theirs = new Histogram({
    name: ours.name,
    help: ours.help,
    labelNames: ['method', 'route', 'status'],
    buckets,
    registers: [],
  });
  for (const { method, route, status, seconds } of observations) {
    ours.forRoute(route).observe(method, status, seconds);
    theirs.observe({ method, route, status: String(status) }, seconds);
  }
  const registryOf = (metric: Metric) => {
    const registry = new Registry();
    registry.registerMetric(metric);
    return registry;
  };
  return { ours: registryOf(ours as unknown as Metric), theirs: registryOf(theirs), durations: ours };
}

const sortedLines = (text: string) => text.split('\n').sort();

describe('RequestDurations', () => {
  it("writes the text prom-client's Histogram writes for the same observations", async () => {
    const { ours, theirs } = both();
    assert.deepEqual(sortedLines(await ours.metrics()), sortedLines(await theirs.metrics()));
    assert.match(
      await ours.metrics(),
      /^tms_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/ping",status="200"\} 1$/m,
    );
  });

  it('gives the same values as JSON', async () => {
    const { ours, theirs } = both();
    const values = async (registry: Registry) => {
      const [metric] = await registry.getMetricsAsJSON();
      const exposed = (metric?.values ?? []) as { labels: object; value: number; metricName?: string }[];
      return exposed.map(({ labels, value, metricName }) => JSON.stringify({ labels, value, metricName })).sort();
    };
    assert.deepEqual(await values(ours), await values(theirs));
  });

  it('keeps the routes it knows when reset, with no series left', async () => {
    const { ours, durations } = both();
    ours.resetMetrics();
    assert.doesNotMatch(await ours.metrics(), /_count/);
    durations.forRoute('/api/ping').observe('GET', 200, 0.002);
    assert.match(
      await ours.metrics(),
      /^tms_http_request_duration_seconds_count\{method="GET",route="\/api\/ping",status="200"\} 1$/m,
    );
  });
});
