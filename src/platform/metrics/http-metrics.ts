/**
 * Times every answer into `tms_http_request_duration_seconds`, labelled with the route's declared
 * pattern (`/api/users/{id}`), never the raw URL: one series per route, whatever ids clients send.
 * A request no route matched counts as `unmatched`.
 */

import { toSpecPath } from '../http/spec-path.ts';
import type { App } from '../http/types.ts';
import type { Metrics } from './metrics.ts';

export const unmatchedRoute = 'unmatched';

export function registerHttpMetrics(app: App, metrics: Metrics): void {
  // No hook at all on an instance that does not serve its metrics: nothing would read them.
  if (!metrics.recording) return;
  // Each route's label written once, not by a regular expression at every answer.
  const labels = new Map<string, string>();
  const labelOf = (pattern: string) => {
    let label = labels.get(pattern);
    if (label === undefined) {
      label = toSpecPath(pattern);
      labels.set(pattern, label);
    }
    return label;
  };
  // A callback hook (see app.ts).
  app.addHook('onResponse', (request, reply, done) => {
    const pattern = request.routeOptions.url;
    metrics.httpRequests.observe(
      {
        method: request.method,
        route: pattern === undefined ? unmatchedRoute : labelOf(pattern),
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
