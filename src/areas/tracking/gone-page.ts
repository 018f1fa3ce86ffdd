/** The small HTML page a /go link answers for an offer that has ended (410), pointing to its establishment. */

import type { Locale } from '../../platform/i18n/i18n.ts';
import { translate } from '../../platform/i18n/i18n.ts';
import { escapeHtml } from '../../platform/text/escape-html.ts';

export function gonePage(locale: Locale, establishmentId: string | null): string {
  const title = escapeHtml(translate(locale, 'tracking.gone.title'));
  const body = escapeHtml(translate(locale, 'tracking.gone.body'));
  const link =
    establishmentId === null
      ? ''
      : `<p><a href="/api/establishments/${escapeHtml(establishmentId)}">${escapeHtml(translate(locale, 'tracking.gone.establishment'))}</a></p>`;
  return `<!doctype html><html lang="${locale.slice(0, 2)}"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p>${link}</main></body></html>`;
}
