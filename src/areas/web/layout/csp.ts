/**
 * The security headers of every web page: a Content-Security-Policy whose only allowed inline script
 * and style are those carrying the response's nonce (a new one per response), no framing, images
 * from this server, `data:` and the tile server of MAP_TILE_URL when set; `Referrer-Policy:
 * same-origin` (nothing leaks to other sites, and same-origin form posts keep their `Origin` header,
 * which the cookie-authenticated writes check); a Permissions-Policy turning off what no page uses.
 */
import { randomFillSync } from 'node:crypto';

const nonceBytes = 16;
// 256 nonces' bytes drawn at once: one call into OpenSSL's generator per 256 pages, not one a page
// (a page's own work, like its render; docs/benchmarks.md, Session 50). Each slice is handed out once.
const pool = Buffer.alloc(nonceBytes * 256);
let next = pool.length;

/** 16 bytes from Node's cryptographic generator (OpenSSL's), in base64: a page's CSP nonce, never handed out twice. */
export function newNonce(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const nonce = pool.toString('base64', next, next + nonceBytes);
  next += nonceBytes;
  return nonce;
}

/**
 * The origin a tile URL template loads from, as a CSP source: `https://{s}.tile.example/{z}/{x}/{y}.png`
 * -> `https://*.tile.example` (a placeholder in the host becomes a wildcard label); null when unusable.
 */
export function tileOrigin(template: string | null | undefined): string | null {
  if (!template) return null;
  const match = /^(https?):\/\/([^/?#]+)/i.exec(template);
  if (!match) return null;
  const [, scheme = '', authority = ''] = match;
  const host = authority.replace(/\{[^}]*\}/g, '*').toLowerCase();
  // CSP knows one wildcard: a whole leftmost label (the config refuses any other placeholder in the host).
  if (!/^(\*\.)?[a-z0-9.:-]+$/.test(host)) return null;
  return `${scheme.toLowerCase()}://${host}`;
}

/**
 * Who may frame the page: nobody (every page), or any site (the embeddable cards, GET /embed/...,
 * which hold nothing but public content and no form, so framing them cannot trick a viewer into an action).
 */
export type Framing = 'none' | 'anyone';

export function contentSecurityPolicy(
  nonce: string,
  imageOrigins: readonly string[] = [],
  framing: Framing = 'none',
): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    ['img-src', "'self'", 'data:', ...imageOrigins].join(' '),
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    framing === 'anyone' ? 'frame-ancestors *' : "frame-ancestors 'none'",
  ].join('; ');
}

export const pageReferrerPolicy = 'same-origin';
export const permissionsPolicy =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), magnetometer=(), gyroscope=(), accelerometer=()';

export function pageSecurityHeaders(
  nonce: string,
  imageOrigins: readonly string[],
  framing: Framing = 'none',
): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(nonce, imageOrigins, framing),
    'Referrer-Policy': pageReferrerPolicy,
    'Permissions-Policy': permissionsPolicy,
    // A page names its viewer and follows the locale cookie: never stored by a shared cache.
    'Cache-Control': 'private, no-cache',
    Vary: 'Accept-Language, Cookie',
  };
}
