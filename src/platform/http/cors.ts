/**
 * CORS, off unless CORS_ORIGINS names origins (@fastify/cors). A request from a listed origin gets
 * `Access-Control-Allow-Origin` (its origin, with `Vary: Origin`) and the headers a client may read;
 * a preflight (OPTIONS with Origin and Access-Control-Request-Method) from it is answered 204 before
 * authentication, rate limits or maintenance. Other origins get no CORS header at all (their
 * preflight is 404). Credentials are bearer tokens, never cookies, so no `Allow-Credentials`.
 */
import cors from '@fastify/cors';
import type { App } from './types.ts';

export const corsMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const corsAllowedHeaders = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Accept-Language',
  'If-None-Match',
  'If-Range',
  'Range',
  'Last-Event-ID',
];
export const corsExposedHeaders = [
  'Content-Language',
  'Content-Range',
  'ETag',
  'Location',
  'Retry-After',
  'WWW-Authenticate',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
/** How long a browser may keep a preflight's answer. */
export const corsMaxAgeSeconds = 600;

export async function registerCors(app: App, origins: readonly string[]) {
  if (origins.length === 0) return;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  await app.register(cors, {
    // `false` leaves the request without any CORS header (and a preflight to the 404 handler).
    origin: (origin, callback) => callback(null, origin !== undefined && (any || allowed.has(origin)) ? origin : false),
    methods: corsMethods,
    allowedHeaders: corsAllowedHeaders,
    exposedHeaders: corsExposedHeaders,
    maxAge: corsMaxAgeSeconds,
    strictPreflight: false,
  });
}
