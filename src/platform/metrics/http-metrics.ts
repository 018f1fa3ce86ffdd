/**
 * Times every answer into `tms_http_request_duration_seconds`, labelled with the route's declared
 * pattern (`/api/users/{id}`), never the raw URL: one series per route, whatever ids clients send.
 * A request no route matched counts as `unmatched`.
 *
 * Each route gets an onResponse hook of its own, holding its series (request-durations.ts), so an
 * answer neither builds `request.routeOptions` (a new object of a dozen fields at every read) nor
 * looks its label up; the app-wide hook times the answers of no route. Registered before any route
 * (app.ts), so every route has its hook.
 */

import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { toSpecPath } from '../http/spec-path.ts';
import type { App } from '../http/types.ts';
import type { Metrics } from './metrics.ts';
import type { RouteDurations } from './request-durations.ts';

export const unmatchedRoute = 'unmatched';

/** A callback hook (see app.ts) observing into one route's series. */
const timing =
  (durations: RouteDurations) =>
  (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    durations.observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  };

export function registerHttpMetrics(app: App, metrics: Metrics): void {
  // No hook at all on an instance that does not serve its metrics: nothing would read them.
  if (!metrics.recording) return;
  app.addHook('onRoute', (route) => {
    const hook = timing(metrics.httpRequests.forRoute(toSpecPath(route.url)));
    const existing = route.onResponse ? [route.onResponse].flat() : [];
    route.onResponse = [hook, ...existing];
  });
  const unmatched = timing(metrics.httpRequests.forRoute(unmatchedRoute));
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched(request, reply, done);
    else done();
  });
}
