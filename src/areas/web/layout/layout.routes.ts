/**
 * The layout's own routes: its stylesheet (GET /assets/site.css, kept a year when asked with the
 * current version) and the language switch (GET /language/{locale}: sets the `locale` cookie and
 * goes back to the page it was clicked on).
 */
import { Type } from 'typebox';
import { redirectTo } from '../../../platform/http/answers.ts';
import { isSecureRequest, setCookie } from '../../../platform/http/cookies.ts';
import { StringEnum } from '../../../platform/http/jsonapi.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import { supportedLocales } from '../../../platform/i18n/i18n.ts';
import { localeCookie } from './locale.ts';
import { siteCss, siteCssPath, siteCssVersion } from './site-css.ts';

const oneYear = 365 * 24 * 3600;

/** A path of this site to go back to: `/...` but never `//host` or `/\host` (another site). */
export function safeNextPath(next: string | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  // Control characters (a tab or a newline hides a `//` from the checks above in some browsers).
  if ([...next].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return '/';
  // A Location header holds ASCII only: anything else is percent-encoded (a lone surrogate: home).
  try {
    return Array.from(next, (char) => (/[\u0021-\u007e]/.test(char) ? char : encodeURIComponent(char))).join('');
  } catch {
    return '/';
  }
}

export function layoutRoutes(): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: siteCssPath,
      auth: 'none',
      summary: "The web pages' stylesheet (immutable for a year when asked with its current `v`)",
      query: { v: Type.Optional(Type.String({ maxLength: 64, description: 'The version the pages link to' })) },
      success: { status: 200, mediaType: 'text/css', description: 'The stylesheet' },
      handler: async ({ query, reply }) =>
        reply
          .header(
            'Cache-Control',
            query.v === siteCssVersion ? `public, max-age=${oneYear}, immutable` : 'public, max-age=300',
          )
          .type('text/css; charset=utf-8')
          .send(siteCss),
    }),
    route({
      method: 'GET',
      path: '/language/{locale}',
      auth: 'none',
      summary:
        'The language switch of the web pages: remembers the language in the `locale` cookie (a year) and goes back',
      params: { locale: StringEnum(supportedLocales, { description: 'The language to show the pages in' }) },
      query: {
        next: Type.Optional(
          Type.String({ maxLength: 2000, description: 'The page to go back to (a path of this site)' }),
        ),
      },
      success: {
        status: 302,
        description: 'Found: Location is the page to go back to (`/` unless a path of this site)',
      },
      handler: async ({ params, query, request, reply }) => {
        setCookie(reply, localeCookie, params.locale, {
          path: '/',
          maxAge: oneYear,
          sameSite: 'Lax',
          secure: isSecureRequest(request),
        });
        reply.header('Cache-Control', 'no-store');
        return redirectTo(safeNextPath(query.next));
      },
    }),
  ];
}
