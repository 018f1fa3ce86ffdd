/**
 * GET /how-it-works and GET /commissions: what the service is and how creators earn. The rules are
 * those of docs/api.md (Clicks, redirects and commissions; Coupons; Sponsorship; Gamification), in words.
 */
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import { translator } from './components.ts';

export function renderHowItWorks(context: PageContext): string {
  const t = translator(context.locale);
  const steps = ['share', 'place', 'discover', 'react', 'earn'] as const;
  const body = html`
    <h1>${t('web.how.title')}</h1>
    <p class="lead">${t('web.how.lead')}</p>
    <ol class="steps">
      ${steps.map(
        (step) => html`<li>
          <strong>${t(`web.how.${step}.title`)}</strong>
          <p>${t(`web.how.${step}.text`)}</p>
        </li>`,
      )}
    </ol>
    <h2>${t('web.how.privacyTitle')}</h2>
    <p>${t('web.how.privacyText')}</p>
    <h2>${t('web.how.progressTitle')}</h2>
    <p>${t('web.how.progressText')}</p>
    <p><a class="button button--primary" href="/explorer">${t('web.home.openMap')}</a></p>`;
  return renderPage(context, {
    title: t('web.how.title'),
    description: t('web.how.lead'),
    canonicalPath: '/how-it-works',
    body,
  });
}

export function renderCommissions(context: PageContext): string {
  const t = translator(context.locale);
  const rules = ['credited', 'rate', 'window', 'duplicates', 'own', 'bots', 'currency', 'earnings'] as const;
  const body = html`
    <h1>${t('web.commissions.title')}</h1>
    <p class="lead">${t('web.commissions.lead')}</p>
    <h2>${t('web.commissions.flowTitle')}</h2>
    <ol class="steps">
      ${['tap', 'partner', 'sale', 'commission'].map((step) => html`<li>${t(`web.commissions.flow.${step}`)}</li>`)}
    </ol>
    <h2>${t('web.commissions.rulesTitle')}</h2>
    <ul>
      ${rules.map((rule) => html`<li>${t(`web.commissions.rule.${rule}`)}</li>`)}
    </ul>
    <h2>${t('web.commissions.exampleTitle')}</h2>
    <p>${t('web.commissions.example')}</p>
    <h2>${t('web.commissions.moreTitle')}</h2>
    <p>${t('web.commissions.more')}</p>`;
  return renderPage(context, {
    title: t('web.commissions.title'),
    description: t('web.commissions.lead'),
    canonicalPath: '/commissions',
    body,
  });
}
