/**
 * Times every answer into `tms_http_request_duration_seconds`, labelled with the route's declared
 * pattern (`/api/users/{id}`), never the raw URL: one series per route, whatever ids clients send.
 * A request no route matched counts as `unmatched`.
 *
 * Each route gets an onResponse hook of its own, holding its series (request-durations.ts,
 * http/route-response-hooks.ts), so an answer neither builds `request.routeOptions` nor looks its
 * label up. Registered before any route (app.ts), so every route has its hook.
 */

import { onEveryRouteResponse, type ResponseHook } from '../http/route-response-hooks.ts';
import { toSpecPath } from '../http/spec-path.ts';
import type { App } from '../http/types.ts';
import type { Metrics } from './metrics.ts';
import type { RouteDurations } from './request-durations.ts';

export const unmatchedRoute = 'unmatched';

/** Observes into one route's series. */
const timing =
  (durations: RouteDurations): ResponseHook =>
  (request, reply, done) => {
    durations.observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  };

export function registerHttpMetrics(app: App, metrics: Metrics): void {
  // No hook at all on an instance that does not serve its metrics: nothing would read them.
  if (!metrics.recording) return;
  onEveryRouteResponse(app, (route) =>
    timing(metrics.httpRequests.forRoute(route === null ? unmatchedRoute : toSpecPath(route))),
  );
}
