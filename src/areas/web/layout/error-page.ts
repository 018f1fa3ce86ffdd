/**
 * HTML error pages in the layout (404, 500, 503 maintenance, and every other HTML error): the
 * error-handler calls this for HTML clients. It reads no database but the viewer's names on a 4xx
 * page of a signed-in request, so the maintenance and 5xx pages render while the database is away.
 */
import type { FastifyRequest } from 'fastify';
import type { HtmlError } from '../../../platform/http/error-handler.ts';
import { hasMessage, translate } from '../../../platform/i18n/i18n.ts';
import { html } from './html.ts';
import { pageContext } from './page-context.ts';
import { renderPage } from './render-page.ts';

const headings: Record<number, string> = { 404: 'notFound', 500: 'internal', 503: 'maintenance' };

export async function renderErrorPage(request: FastifyRequest, error: HtmlError): Promise<string> {
  // A 5xx may come from the database itself: its page names nobody rather than read the viewer.
  const context = await pageContext(request, error.status >= 500 ? null : (request.viewer ?? null));
  const t = (key: string, values?: Record<string, unknown>) => translate(context.locale, key, values);
  const kind = headings[error.status];
  const message = hasMessage(`errors.${error.code}`) ? t(`errors.${error.code}`, error.values) : error.title;
  const heading = kind ? t(`web.error.${kind}.heading`) : message;
  const text = kind ? t(`web.error.${kind}.text`) : null;
  // The operator's maintenance message is meant for people; other details are for developers.
  const detail = error.code === 'maintenance' ? error.detail : undefined;
  const body = html`<div class="error-page">
    <p class="status">${error.status}</p>
    <h1>${heading}</h1>
    ${text ? html`<p class="lead">${text}</p>` : null}
    ${kind && kind !== 'notFound' ? html`<p>${message}</p>` : null}
    ${detail ? html`<p>${detail}</p>` : null}
    <p><a class="button button--primary" href="/">${t('web.error.home')}</a></p>
  </div>`;
  return renderPage(context, {
    title: heading,
    description: text ?? message,
    canonicalPath: context.path,
    body,
    noIndex: true,
  });
}
