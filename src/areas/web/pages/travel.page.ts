/** GET /travel: public media by country, then by city, with links down the levels. */

import { formatCount } from '../../../platform/i18n/locale-formats.ts';
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import type { TravelView } from '../web-pages.service.ts';
import { breadcrumbs, cityPath, emptyState, mediaGrid, moreLink, translator } from './components.ts';

export function renderTravel(context: PageContext, view: TravelView): string {
  const t = translator(context.locale);
  const photos = (count: number) => t('web.travel.photos', { count, formatted: formatCount(context.locale, count) });
  if (view.level === 'world') {
    const body = html`
      <h1>${t('web.travel.title')}</h1>
      <p class="lead">${t('web.travel.lead')}</p>
      <h2>${t('web.travel.countries')}</h2>
      ${
        view.countries.length > 0
          ? html`<ul class="place-list">
              ${view.countries.map(
                (country) => html`<li>
                  <a href=${`/travel?country=${country.countryCode}`}>${context.locale === 'fr-FR' ? country.nameFr : country.nameEn}</a>
                  <span class="count"> · ${photos(country.mediaCount)}</span>
                </li>`,
              )}
            </ul>`
          : emptyState(t('web.travel.empty'))
      }`;
    return renderPage(context, {
      title: t('web.travel.title'),
      description: t('web.travel.lead'),
      canonicalPath: '/travel',
      body,
    });
  }
  const countryName = context.locale === 'fr-FR' ? view.country.nameFr : view.country.nameEn;
  const countryPath = `/travel?country=${view.country.code}`;
  const title = view.city ? `${view.city.name}, ${countryName}` : countryName;
  const path = view.city ? cityPath(view.country.code, view.city.id) : countryPath;
  const body = html`
    ${breadcrumbs(t, [
      { label: t('web.travel.title'), href: '/travel' },
      { label: countryName, href: countryPath },
      ...(view.city ? [{ label: view.city.name }] : []),
    ])}
    <h1>${title}</h1>
    ${
      view.cities.length > 0
        ? html`<section aria-labelledby="travel-cities">
            <h2 id="travel-cities">${t('web.travel.cities')}</h2>
            <ul class="place-list">
              ${view.cities.map(
                (city) => html`<li>
                  <a href=${cityPath(view.country.code, city.cityId)}>${city.cityName}</a>
                  <span class="count"> · ${photos(city.mediaCount)}</span>
                </li>`,
              )}
            </ul>
          </section>`
        : null
    }
    <section aria-labelledby="travel-media">
      <h2 id="travel-media">${t('web.travel.media', { place: view.city?.name ?? countryName })}</h2>
      ${
        view.media.items.length > 0
          ? mediaGrid(t, view.media.items, t('web.travel.media', { place: view.city?.name ?? countryName }), {
              id: 'place',
              blurSensitive: context.blurSensitiveMedia,
            })
          : emptyState(t('web.travel.emptyPlace'))
      }
      ${moreLink(t, '/travel', { country: view.country.code, city: view.city?.id }, view.media.nextCursor)}
    </section>`;
  return renderPage(context, {
    title,
    description: t('web.travel.placeDescription', { place: title }),
    canonicalPath: path,
    body,
  });
}
