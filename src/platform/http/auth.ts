/**
 * Route authentication, declared per route with `config.auth` (see RouteAuth). A `user` route
 * answers 401 with `WWW-Authenticate: Bearer` without a valid session token, 403 for a banned
 * account; an `admin` route answers 401 to anything but ADMIN_API_TOKEN (user tokens included).
 *
 * The web sign-in cookie (`tm_session`, set by POST /login: src/areas/web/sign-in) is read only by
 * `optional` GET pages outside /api and /admin, where it names the viewer shown in the page, and by the
 * `user` GETs declared `webCookie` (the notification stream, which the pages' EventSource opens); the
 * rest of the API never reads it (Bearer only), so no cross-site request can act with it (docs/api.md,
 * Web sign-in).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { readCookie } from './cookies.ts';
import { AppError } from './error-catalogue.ts';
import type { App, RouteAuth, Viewer } from './types.ts';

export interface ResolvedSession {
  viewer: Viewer;
  banned: boolean;
}

export interface SessionResolver {
  /**
   * The live session of a bearer token, or null when unknown, revoked or expired: at once when it
   * is known without waiting (a cached session), else a promise.
   */
  resolve(token: string, request: FastifyRequest): ResolvedSession | null | Promise<ResolvedSession | null>;
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** The cookie of the web sign-in: an access token of the sessions table. */
export const webSessionCookie = 'tm_session';

/** Pages (not /api, not /admin) may identify their viewer by the web sign-in cookie. */
const readsWebCookie = (url: string) => !/^\/(api|admin)(\/|$)/.test(url);

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison (hashing first makes the lengths equal). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

const unauthenticated = (realm: string, detail?: string) =>
  new AppError('unauthenticated', {
    detail,
    headers: { 'WWW-Authenticate': `Bearer realm="${realm}"` },
  });

export type PageViewerHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Declares every route's authentication. Returns the lookup of a page's viewer (Bearer, or the web
 * cookie on GET/HEAD) for answers no route declares: the 404 page of an unknown path.
 */
export function registerAuth(
  app: App,
  options: { adminToken: string | null; sessions: SessionResolver },
): { pageViewer: PageViewerHook } {
  app.decorateRequest('viewer', null);

  /** What a resolved session makes of the request: its viewer, or the refusal of a `user` route. */
  const settle = (
    request: FastifyRequest,
    session: ResolvedSession | null,
    required: boolean,
  ): AppError | undefined => {
    if (session === null)
      return required ? unauthenticated('api', 'the token is unknown, revoked or expired') : undefined;
    if (session.banned) return required ? new AppError('accountBanned') : undefined;
    request.viewer = session.viewer;
    return undefined;
  };

  // A callback hook (see app.ts): a cached session answers at once, with no promise made.
  const userHook =
    (required: boolean, webCookie = false): onRequestHookHandler =>
    (request, _reply, done) => {
      // Only safe methods of pages: a page shows who is signed in, it never writes with the cookie.
      const token =
        bearerToken(request) ??
        (webCookie && (request.method === 'GET' || request.method === 'HEAD')
          ? readCookie(request, webSessionCookie)
          : null);
      if (token === null) {
        done(required ? unauthenticated('api') : undefined);
        return;
      }
      const session = options.sessions.resolve(token, request);
      if (session instanceof Promise) {
        session.then((resolved) => done(settle(request, resolved, required)), done);
      } else {
        done(settle(request, session, required));
      }
    };

  const adminHook: onRequestHookHandler = async (request) => {
    const token = bearerToken(request);
    if (token === null || options.adminToken === null || !sameSecret(token, options.adminToken)) {
      throw unauthenticated(
        'admin',
        options.adminToken === null ? 'the admin API is disabled (ADMIN_API_TOKEN unset)' : undefined,
      );
    }
  };

  const hooks: Record<RouteAuth, onRequestHookHandler | null> = {
    none: null,
    optional: userHook(false),
    user: userHook(true),
    admin: adminHook,
  };

  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth ?? 'none';
    const webCookie = auth === 'user' && route.config?.webCookie === true;
    const hook =
      auth === 'optional' && readsWebCookie(route.url)
        ? userHook(false, true)
        : webCookie
          ? userHook(true, true)
          : hooks[auth];
    if (hook === null) return;
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [hook, ...existing];
    if (route.schema && auth !== 'optional') {
      route.schema.security =
        auth === 'admin'
          ? [{ adminToken: [] }]
          : webCookie
            ? [{ sessionToken: [] }, { sessionCookie: [] }]
            : [{ sessionToken: [] }];
    }
  });

  const pageViewer = userHook(false, true);
  return {
    pageViewer: (request, reply) =>
      new Promise((resolve, reject) => {
        if (!readsWebCookie(request.url)) return resolve();
        pageViewer.call(app, request, reply, (error) => (error ? reject(error) : resolve()));
      }),
  };
}
