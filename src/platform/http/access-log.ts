/**
 * One log line per answered request, at `info` (`http.request`: method, the route's pattern, status,
 * milliseconds, with the request's `reqId`), in place of Fastify's two (`incoming request` and
 * `request completed`, turned off in app.ts). Half the lines for the same facts: at the default level
 * each line is a serialization and a write, a measurable share of a request as cheap as ping
 * (docs/benchmarks.md). The route's pattern (`/api/users/:userId/media`), not the path: a path or a
 * query may hold what a log must not keep (a share link's token, a cursor, an emailed code); an
 * unmatched path is logged as `route: null`. No hook at all when `info` is off.
 *
 * As the request timing (http-metrics.ts), each route gets a hook of its own holding its pattern, so
 * an answer does not build `request.routeOptions` (a new object of a dozen fields at every read); the
 * app-wide hook logs the answers of no route. Registered before any route (app.ts).
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Logger } from 'pino';
import type { App } from './types.ts';

/** A callback hook (see app.ts) logging the answers of one route, or of none (`route` null). */
const logging =
  (route: string | null) =>
  (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    request.log.info(
      {
        event: 'http.request',
        method: request.method,
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  };

export function registerAccessLog(app: App): void {
  // Fastify's logger is pino, or none at all (`logger: false`); its type does not show pino's level check.
  if ((app.log as Partial<Logger>).isLevelEnabled?.('info') !== true) return;
  app.addHook('onRoute', (route) => {
    const existing = route.onResponse ? [route.onResponse].flat() : [];
    // First, as the timing's: a later hook of the route that failed would stop the chain before it.
    route.onResponse = [logging(route.url), ...existing];
  });
  const unmatched = logging(null);
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched(request, reply, done);
    else done();
  });
}
