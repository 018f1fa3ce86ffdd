import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Locale } from '../i18n/i18n.ts';
import type { RateLimitRule } from './rate-limit.ts';

/** The Fastify instance every area registers its routes on. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * Who may call a route: `none` (public), `optional` (public, but a valid user token identifies the
 * viewer), `user` (a user session token), `admin` (the ADMIN_API_TOKEN).
 */
export type RouteAuth = 'none' | 'optional' | 'user' | 'admin';

export interface Viewer {
  userId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** Replaces the default per-IP limit of /api and /admin routes. */
    rateLimit?: RateLimitRule[];
  }
  interface FastifyRequest {
    /** The signed-in user on `user` routes (always set there) and `optional` routes (when a token was sent). */
    viewer: Viewer | null;
    locale: Locale;
  }
}

/** The viewer of a `user` route; the auth hook guarantees it is set. */
export function requireViewer(request: { viewer: Viewer | null }): Viewer {
  if (request.viewer === null) throw new Error('requireViewer used on a route without user auth');
  return request.viewer;
}
