import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TSchema } from 'typebox';
import type { Locale } from '../i18n/i18n.ts';
import type { ErrorCode } from './error-catalogue.ts';
import type { RateLimitRule } from './rate-limit.ts';
import type { Success } from './route.ts';

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
  interface FastifyInstance {
    /** PUBLIC_URL without a trailing slash: the base of every absolute link the service writes. */
    publicUrl: string;
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** Replaces the default per-IP limit of /api and /admin routes. */
    rateLimit?: RateLimitRule[];
    /** Every error code the route can answer (declared routes: route.ts), for OpenAPI. */
    errors?: ErrorCode[];
    /** The success answer (declared routes), for OpenAPI. */
    success?: Success;
    /** The schema of a multipart/form-data body, for OpenAPI. */
    multipart?: TSchema;
    /** The route also reads application/x-www-form-urlencoded bodies (HTML forms; form-bodies.ts). */
    formBody?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user on `user` routes (always set there) and `optional` routes (when a token was sent). */
    viewer: Viewer | null;
    locale: Locale;
  }
}
