/**
 * Headers that keep browsers from misusing our answers:
 * - every answer: `X-Content-Type-Options: nosniff` (set by content-types.ts) and `Referrer-Policy:
 *   no-referrer`, so a link followed from a page of ours (the API reference, an error page) never
 *   carries its URL, tokens in query strings included;
 * - HTML answers (`/api/docs`, HTML error pages): `Content-Security-Policy: frame-ancestors 'none'`
 *   and `X-Frame-Options: DENY` (for older browsers), so no other site can frame them (clickjacking).
 * - web pages (src/areas/web/layout) replace those defaults with their own (a Content-Security-Policy
 *   with the response's nonce, `Referrer-Policy: same-origin`, `Permissions-Policy`) through
 *   `setPageSecurityHeaders`, set when the page is rendered and applied here to its HTML answer; a page
 *   whose policy has frame-ancestors other than 'none' (the embeddable cards) has no X-Frame-Options.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from './types.ts';

export const referrerPolicy = 'no-referrer';
export const htmlFrameHeaders = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
} as const;

const pageHeaders = new WeakMap<FastifyRequest, Record<string, string>>();

/** The headers of the page this request answers (HTML answers only), replacing the defaults above. */
export function setPageSecurityHeaders(request: FastifyRequest, headers: Record<string, string>): void {
  pageHeaders.set(request, headers);
}

/** A page's Vary adds to what is there (Origin, Accept-Language), each name once. */
function mergeVary(current: unknown, added: string): string {
  const names = [...String(current ?? '').split(','), ...added.split(',')].map((name) => name.trim());
  const seen = new Set<string>();
  return names
    .filter((name) => name !== '' && !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()))
    .join(', ');
}

export function registerSecurityHeaders(app: App) {
  // A callback hook (see app.ts).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('Referrer-Policy', referrerPolicy);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      const page = pageHeaders.get(request);
      // A page whose own policy lets others frame it (the embeddable cards) goes without X-Frame-Options.
      const framable = page?.['Content-Security-Policy']?.includes("frame-ancestors 'none'") === false;
      reply.headers(
        framable ? { 'Content-Security-Policy': htmlFrameHeaders['Content-Security-Policy'] } : htmlFrameHeaders,
      );
      // A Cache-Control the handler chose (no-store on the sign-in page's mailed links) wins.
      if (page) {
        const { 'Cache-Control': cacheControl, Vary: vary, ...others } = page;
        reply.headers(others);
        if (cacheControl !== undefined && !reply.hasHeader('cache-control'))
          reply.header('Cache-Control', cacheControl);
        if (vary !== undefined) reply.header('Vary', mergeVary(reply.getHeader('vary'), vary));
      }
    }
    done(null, payload);
  });
}
