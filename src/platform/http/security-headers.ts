/**
 * Headers that keep browsers from misusing our answers:
 * - every answer: `X-Content-Type-Options: nosniff` (set by content-types.ts) and `Referrer-Policy:
 *   no-referrer`, so a link followed from a page of ours (the API reference, an error page) never
 *   carries its URL, tokens in query strings included;
 * - HTML answers (`/api/docs`, HTML error pages): `Content-Security-Policy: frame-ancestors 'none'`
 *   and `X-Frame-Options: DENY` (for older browsers), so no other site can frame them (clickjacking).
 */
import type { App } from './types.ts';

export const referrerPolicy = 'no-referrer';
export const htmlFrameHeaders = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
} as const;

export function registerSecurityHeaders(app: App) {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Referrer-Policy', referrerPolicy);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) reply.headers(htmlFrameHeaders);
    return payload;
  });
}
