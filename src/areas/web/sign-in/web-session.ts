/**
 * The web sign-in's cookie and its CSRF rule (docs/api.md, Web sign-in).
 *
 * `tm_session` holds an access token of the sessions table (the same row GET /api/auth/sessions
 * lists): HttpOnly (no script reads it), SameSite=Lax (other sites' subrequests and form posts do not
 * carry it), Path=/, Secure when the request came over https (X-Forwarded-Proto counts only when
 * TRUST_PROXY trusts the proxy) or PUBLIC_URL is https. Only pages read it (platform/http/auth.ts),
 * for GET; the writes that touch it (POST /login, /logout, /auth/oauth/{provider}) also require the
 * request to come from this site (`sameSiteRequest`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { webSessionCookie } from '../../../platform/http/auth.ts';
import { isSecureRequest, setCookie } from '../../../platform/http/cookies.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';

export { webSessionCookie };

/** Sets the cookie to an access token, kept as long as a session lives unused (SESSION_TTL_DAYS). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, ttlDays: number): void {
  setCookie(reply, webSessionCookie, token, {
    maxAge: ttlDays * 86_400,
    path: '/',
    httpOnly: true,
    secure: isSecureRequest(request),
    sameSite: 'Lax',
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  setCookie(reply, webSessionCookie, '', {
    maxAge: 0,
    path: '/',
    httpOnly: true,
    secure: isSecureRequest(request),
    sameSite: 'Lax',
  });
}

const originOf = (url: string): string | null => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
};

/** The origins this site answers as: PUBLIC_URL's, and the one the request was addressed to. */
function ownOrigins(request: FastifyRequest): Set<string> {
  const origins = new Set<string>();
  const publicOrigin = originOf(request.server.publicUrl);
  if (publicOrigin) origins.add(publicOrigin);
  const addressed = originOf(`${request.protocol}://${request.host}`);
  if (addressed) origins.add(addressed);
  return origins;
}

/**
 * Whether a write comes from one of this site's pages: its `Origin` is ours; or, when a browser sent
 * `Origin: null` or none (privacy settings), `Sec-Fetch-Site: same-origin`; or, failing both, its
 * `Referer` is a page of ours. Anything else (another site, a sandboxed frame, no evidence) is refused.
 */
export function isSameSiteRequest(request: FastifyRequest): boolean {
  const own = ownOrigins(request);
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    const given = originOf(origin);
    return given !== null && own.has(given);
  }
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite === 'same-origin';
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    const refererOrigin = originOf(referer);
    return refererOrigin !== null && own.has(refererOrigin);
  }
  return false;
}

export function requireSameSiteRequest(request: FastifyRequest): void {
  if (!isSameSiteRequest(request)) {
    throw new AppError('crossOriginRequest', {
      source: { header: 'Origin' },
      detail: 'a web sign-in write must come from a page of this site (Origin, Sec-Fetch-Site or Referer)',
    });
  }
}
