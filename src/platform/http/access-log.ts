/**
 * One log line per answered request, at `info` (`http.request`: method, the route's pattern, status,
 * milliseconds, with the request's `reqId`), in place of Fastify's two (`incoming request` and
 * `request completed`, turned off in app.ts). Half the lines for the same facts: at the default level
 * each line is a serialization and a write, a measurable share of a request as cheap as ping
 * (docs/benchmarks.md). The route's pattern (`/api/users/:userId/media`), not the path: a path or a
 * query may hold what a log must not keep (a share link's token, a cursor, an emailed code); an
 * unmatched path is logged as `route: null`. No hook at all when `info` is off; else each route's own
 * (route-response-hooks.ts). Registered before any route (app.ts).
 */
import type { Logger } from 'pino';
import { onEveryRouteResponse, type ResponseHook } from './route-response-hooks.ts';
import type { App } from './types.ts';

/** Logs the answers of one route, or of none (`route` null). */
const logging =
  (route: string | null): ResponseHook =>
  (request, reply, done) => {
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
  onEveryRouteResponse(app, logging);
}
