/**
 * The language of a page: the `locale` cookie (set by the language switch, GET /language/{locale})
 * when it names a supported locale, else the one negotiated from Accept-Language.
 */
import type { FastifyRequest } from 'fastify';
import { type Locale, negotiateLocale, supportedLocales } from '../../../platform/i18n/i18n.ts';

export const localeCookie = 'locale';

/** One cookie's value from a Cookie header (first occurrence), or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0 || part.slice(0, index).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

export const isLocale = (value: string | null): value is Locale =>
  value !== null && (supportedLocales as readonly string[]).includes(value);

export function pageLocale(request: FastifyRequest): Locale {
  const chosen = cookieValue(request.headers.cookie, localeCookie);
  return isLocale(chosen) ? chosen : negotiateLocale(request.headers['accept-language']);
}
