/**
 * An `onResponse` hook made once per route, holding what it needs of the route (its pattern), so an
 * answer neither builds `request.routeOptions` (a new object of a dozen fields at every read) nor looks
 * anything up; the answers of no route get the one made for `null`. The hook runs first among the
 * route's (a later one that failed would stop the chain before it). Register before any route is
 * added (app.ts), so every route has its hook. Used by the request timing and the access log.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { App } from './types.ts';

/** A callback hook (see app.ts). */
export type ResponseHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/** Gives each route the hook `hookFor(its pattern)`, and the answers of no route `hookFor(null)`. */
export function onEveryRouteResponse(app: App, hookFor: (route: string | null) => ResponseHook): void {
  app.addHook('onRoute', (route) => {
    const existing = route.onResponse ? [route.onResponse].flat() : [];
    route.onResponse = [hookFor(route.url), ...existing];
  });
  const unmatched = hookFor(null);
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched(request, reply, done);
    else done();
  });
}
