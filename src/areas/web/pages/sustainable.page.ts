/** GET /sustainable-tourism: the catalogue's active establishments, with their sustainability labels. */
import type { Page } from '../../../platform/db/page.ts';
import { hasMessage } from '../../../platform/i18n/i18n.ts';
import { regionName } from '../../../platform/i18n/locale-formats.ts';
import { localized } from '../../catalogue/public.ts';
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import type { ListedEstablishment } from '../web-pages.service.ts';
import { emptyState, moreLink, type Translate, translator } from './components.ts';

/** A word of the catalogue's closed lists in the page's language (the value itself if unknown). */
const word = (t: Translate, kind: 'kind' | 'label', value: string) =>
  hasMessage(`web.catalogue.${kind}.${value}`) ? t(`web.catalogue.${kind}.${value}`) : value;

/** Only http(s) links are shown: the catalogue's imports check it, and the page checks again. */
const safeWebsite = (url: string | null) => (url !== null && /^https?:\/\//i.test(url) ? url : null);

function establishmentCard(context: PageContext, t: Translate, row: ListedEstablishment) {
  const description = localized(row.description, context.locale);
  const website = safeWebsite(row.website);
  const place = [row.cityName, regionName(context.locale, row.countryCode)].filter(Boolean).join(', ');
  return html`<li class="card">
    <article aria-labelledby=${`establishment-${row.id}`}>
      <h3 id=${`establishment-${row.id}`}>${row.name}</h3>
      <p class="count">${word(t, 'kind', row.kind)} · ${place}</p>
      ${description.text ? html`<p lang=${description.locale?.split('-')[0]}>${description.text}</p>` : null}
      ${
        row.labels.length > 0
          ? html`<ul class="badge-list" aria-label=${t('web.sustainable.labels')}>
              ${row.labels.map((label) => html`<li>${word(t, 'label', label)}</li>`)}
            </ul>`
          : null
      }
      ${website ? html`<p><a href=${website} rel="nofollow noopener noreferrer">${t('web.sustainable.website')}</a></p>` : null}
    </article>
  </li>`;
}

export function renderSustainable(context: PageContext, page: Page<ListedEstablishment>): string {
  const t = translator(context.locale);
  const body = html`
    <h1>${t('web.sustainable.title')}</h1>
    <p class="lead">${t('web.sustainable.lead')}</p>
    ${
      page.items.length > 0
        ? html`<ul class="card-list" aria-label=${t('web.sustainable.listLabel')}>
            ${page.items.map((row) => establishmentCard(context, t, row))}
          </ul>`
        : emptyState(html`<p>${t('web.sustainable.empty')}</p><p>${t('web.sustainable.emptyHint')}</p>`)
    }
    ${moreLink(t, '/sustainable-tourism', {}, page.nextCursor)}`;
  return renderPage(context, {
    title: t('web.sustainable.title'),
    description: t('web.sustainable.lead'),
    canonicalPath: '/sustainable-tourism',
    body,
  });
}
