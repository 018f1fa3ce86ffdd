/**
 * Reading and writing cookies without a plugin: the web pages use two (`tm_session`, the web sign-in,
 * and `locale`, the language switch). Values are URI-encoded; a malformed header reads as no cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The value of one cookie of the request, or null. The first one wins when a name repeats. */
export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || header === '') return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    let value = part.slice(separator + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return null;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie; undefined makes a session cookie. */
  maxAge?: number;
  path?: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`bad cookie name ${name}`);
  const parts = [`${name}=${encodeURIComponent(value)}`];
  if (options.maxAge !== undefined) {
    parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAge))}`);
    if (options.maxAge <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  }
  parts.push(`Path=${options.path ?? '/'}`);
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  if (options.sameSite) parts.push(`SameSite=${options.sameSite}`);
  return parts.join('; ');
}

/** Adds a Set-Cookie header to the reply (keeping the ones already set). */
export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions = {}): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...list, serializeCookie(name, value, options)]);
}

/** Whether a cookie may be marked Secure: the request came over https, or the site is served over https. */
export function isSecureRequest(request: FastifyRequest): boolean {
  return request.protocol === 'https' || request.server.publicUrl.startsWith('https:');
}
