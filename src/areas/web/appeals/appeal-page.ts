/**
 * The page of a banned user's appeal link (docs/api.md, Moderation decisions and appeals): its GET
 * shows a form (mail scanners follow links: nothing is filed until the form is sent), which POSTs the
 * text to the same URL; then it says the appeal was sent.
 */
import { translate } from '../../../platform/i18n/i18n.ts';
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';

export const appealPagePath = '/appeal';

export type AppealPage = { kind: 'form'; token: string; maxLength: number } | { kind: 'sent' };

export function renderAppealPage(context: PageContext, page: AppealPage): string {
  const t = (key: string) => translate(context.locale, `appealPage.${key}`);
  const content =
    page.kind === 'sent'
      ? html`<p class="lead" role="status">${t('sent')}</p>`
      : html`<p class="lead">${t('lead')}</p>
          <form id="appeal-form" class="form" method="post" action=${`${appealPagePath}?token=${encodeURIComponent(page.token)}`}>
            <div class="field">
              <label for="appeal-text">${t('text')}</label>
              <textarea id="appeal-text" name="text" rows="8" required maxlength=${String(page.maxLength)}></textarea>
            </div>
            <button type="submit" class="button button--primary">${t('submit')}</button>
          </form>`;
  const body = html`<section class="appeal-link" data-state=${page.kind}>
    <h1>${t('title')}</h1>
    ${content}
  </section>`;
  return renderPage(context, {
    title: t('title'),
    description: t('description'),
    canonicalPath: appealPagePath,
    body,
    noIndex: true,
  });
}
