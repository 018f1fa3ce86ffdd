/**
 * The viewer of a security-page write: the `tm_session` cookie's live session, from a page of this
 * site only (web-session.ts's CSRF rule). 401 without a live session, 403 for a banned account.
 */
import type { FastifyRequest } from 'fastify';
import { readCookie } from '../../../platform/http/cookies.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import type { SecurityServices } from '../public.ts';
import { requireSameSiteRequest, webSessionCookie } from '../sign-in/web-session.ts';

export interface CookieViewer {
  userId: string;
  sessionId: string;
}

export async function cookieViewer(
  request: FastifyRequest,
  sessions: SecurityServices['sessions'],
): Promise<CookieViewer> {
  requireSameSiteRequest(request);
  const token = readCookie(request, webSessionCookie);
  const resolved = token === null ? null : await sessions.resolve(token, request);
  if (resolved === null) throw new AppError('unauthenticated', { detail: 'sign in on this site first' });
  if (resolved.banned) throw new AppError('accountBanned');
  return resolved.viewer;
}
