/**
 * The newsletter form's small HTML page (subscribed): server-rendered, localized, every value escaped,
 * no outside asset (inline style only). Errors use the platform's error page. The pages of the mailed
 * links are the web area's (src/areas/web/newsletter).
 */

import type { FastifyRequest } from 'fastify';
import { type Locale, languageOf, translate } from '../../platform/i18n/i18n.ts';
import { escapeHtml } from '../../platform/text/escape-html.ts';

export type PageKind = 'subscribed';

export function renderPage(locale: Locale, kind: PageKind, values: Record<string, unknown> = {}): string {
  const e = escapeHtml;
  const title = translate(locale, `newsletter.page.${kind}.title`);
  const body = translate(locale, `newsletter.page.${kind}.body`, values);
  return `<!doctype html>
<html lang="${e(languageOf(locale))}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5; color: #222; max-width: 560px; margin: 0 auto; padding: 24px;">
<main><h1>${e(title)}</h1><p>${e(body)}</p></main>
<footer style="font-size: 13px; color: #888;">${e(translate(locale, 'newsletter.page.footer'))}</footer>
</body>
</html>
`;
}

/** The same rule as the error pages: HTML unless the client asks for JSON and not for HTML. */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('json') && !accept.includes('text/html');
}
