/**
 * The pages of the newsletter's mailed links, in the site's layout. A link's GET shows what it would
 * do and a button, a plain form that posts it (no script needed): mail scanners follow links, so no
 * GET or HEAD confirms or unsubscribes. After the click, or when there is nothing left to do, the page
 * says where the address stands.
 */
import { translate } from '../../../platform/i18n/i18n.ts';
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';

/**
 * What a page shows: a link waiting for its button (`confirm`, `unsubscribe`), or the state of the
 * address (the others); `token` is the link's.
 */
export interface NewsletterPage {
  kind: 'confirm' | 'unsubscribe' | 'confirmed' | 'alreadyConfirmed' | 'unsubscribed';
  email: string;
  token: string;
}
type ButtonKind = 'confirm' | 'unsubscribe';
const hasButton = (page: NewsletterPage): page is NewsletterPage & { kind: ButtonKind } =>
  page.kind === 'confirm' || page.kind === 'unsubscribe';

const paths = { confirm: '/newsletter/confirm', unsubscribe: '/newsletter/unsubscribe' } as const;

function button(context: PageContext, page: NewsletterPage & { kind: ButtonKind }) {
  const t = (key: string) => translate(context.locale, `newsletterPage.${page.kind}.${key}`);
  // The one-click body of RFC 8058: the unsubscribe button posts what mail clients post.
  const oneClick =
    page.kind === 'unsubscribe' ? html`<input type="hidden" name="List-Unsubscribe" value="One-Click" />` : null;
  return html`<form id="newsletter-form" method="post" action=${`${paths[page.kind]}?token=${encodeURIComponent(page.token)}`}>
    ${oneClick}
    <button type="submit" class=${page.kind === 'confirm' ? 'button button--primary' : 'button'}>${t('submit')}</button>
  </form>`;
}

export function renderNewsletterPage(context: PageContext, page: NewsletterPage): string {
  const t = (key: string) => translate(context.locale, `newsletterPage.${page.kind}.${key}`, { email: page.email });
  const body = html`<section class="newsletter-link" data-state=${page.kind}>
    <h1>${t('title')}</h1>
    <p class="lead">${t('body')}</p>
    ${hasButton(page) ? button(context, page) : null}
  </section>`;
  const path = page.kind === 'confirm' || page.kind === 'confirmed' || page.kind === 'alreadyConfirmed';
  return renderPage(context, {
    title: t('title'),
    description: translate(context.locale, 'newsletterPage.description'),
    canonicalPath: path ? paths.confirm : paths.unsubscribe,
    body,
    noIndex: true,
  });
}
