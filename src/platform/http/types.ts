import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TSchema } from 'typebox';
import type { Locale } from '../i18n/i18n.ts';
import type { ErrorCode } from './error-catalogue.ts';

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

/** A rate limit of a route (rate-limit.ts): a counter, its maximum in its window, and whom it counts. */
export interface RateLimitRule {
  /** Names the counter, e.g. 'login:ip'. */
  name: string;
  max: number;
  windowSeconds: number;
  /** The subject the counter counts for; null skips the rule for this request. */
  key: (request: FastifyRequest) => string | null;
}

/**
 * The answer of a route that succeeds, declared once: its body is `schema` (a JSON document, sent as
 * application/vnd.api+json under /api and /admin, application/json elsewhere), or a body of
 * `mediaType` (a page, an image, an archive), or, with neither, no body at all (whatever the handler returns).
 */
export interface Success {
  /** 302: a redirect (the handler sends it, Location included; e.g. GET /go/offer/{id}). */
  status: 200 | 201 | 202 | 204 | 206 | 302;
  /** The JSON body's schema (JSON:API documents under /api and /admin). */
  schema?: TSchema;
  /** A body that is not JSON: its media type, or each one it may have. */
  mediaType?: string | readonly string[];
  description?: string;
  /**
   * Other statuses the route answers without an error (a duplicate's 200, 206 and 304 for files), with
   * what they mean; each has the main answer's body, but 304, which has none.
   */
  also?: Record<number, string>;
  /** A web form's answer has no body when the client asks for JSON rather than HTML (the error pages' rule). */
  emptyForJson?: boolean;
}

export interface Viewer {
  userId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** PUBLIC_URL without a trailing slash: the base of every absolute link the service writes. */
    publicUrl: string;
    /** Runs a route's handler where its reads may go (read-routing.ts); unset: the primary only. */
    routedReads?: <T>(request: FastifyRequest, handler: () => Promise<T>) => Promise<T>;
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** A `user` GET that also reads the web sign-in cookie (route.ts, `webCookie`). */
    webCookie?: boolean;
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
