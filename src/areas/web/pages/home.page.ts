/** GET /: live highlights: what trends, the newest public photos, the busiest places. */

import { formatCount, regionName } from '../../../platform/i18n/locale-formats.ts';
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import type { Highlights } from '../web-pages.service.ts';
import { cityPath, emptyState, mediaGrid, translator, variantUrl } from './components.ts';

export function renderHome(context: PageContext, highlights: Highlights): string {
  const t = translator(context.locale);
  const { recent, trending, places } = highlights;
  // The page's preview image (OpenGraph) is never a photo behind a content warning.
  const first = [...(trending?.media ?? []), ...recent].find((media) => !media.authorSensitive);
  const body = html`
    <section class="hero" aria-labelledby="home-title">
      <h1 id="home-title">${t('web.home.title')}</h1>
      <p class="lead">${t('web.home.lead')}</p>
      <p>
        <a class="button button--primary" href="/explorer">${t('web.home.openMap')}</a>
        ${' '}
        <a class="button" href="/travel">${t('web.home.browsePlaces')}</a>
      </p>
    </section>
    ${
      trending
        ? html`<section aria-labelledby="home-trending">
            <div class="section-head">
              <h2 id="home-trending">${t('web.home.trending', { country: regionName(context.locale, trending.countryCode) })}</h2>
              <a href=${`/travel?country=${trending.countryCode}`}>${t('web.home.seeCountry')}</a>
            </div>
            ${mediaGrid(t, trending.media, t('web.home.trendingLabel'), { id: 'trending', blurSensitive: context.blurSensitiveMedia })}
          </section>`
        : null
    }
    <section aria-labelledby="home-recent">
      <h2 id="home-recent">${t('web.home.recent')}</h2>
      ${recent.length > 0 ? mediaGrid(t, recent, t('web.home.recent'), { id: 'recent', blurSensitive: context.blurSensitiveMedia }) : emptyState(t('web.home.noMedia'))}
    </section>
    <section aria-labelledby="home-places">
      <div class="section-head">
        <h2 id="home-places">${t('web.home.places')}</h2>
        <a href="/travel">${t('web.home.allPlaces')}</a>
      </div>
      ${
        places.length > 0
          ? html`<ul class="place-list">
              ${places.map(
                (place) => html`<li>
                  <a href=${cityPath(place.countryCode, place.cityId)}>${place.cityName}</a>
                  <span class="count"> · ${regionName(context.locale, place.countryCode)} · ${t('web.travel.photos', { count: place.mediaCount, formatted: formatCount(context.locale, place.mediaCount) })}</span>
                </li>`,
              )}
            </ul>`
          : emptyState(t('web.home.noPlaces'))
      }
    </section>
    <section aria-labelledby="home-how">
      <h2 id="home-how">${t('web.home.howTitle')}</h2>
      <p>${t('web.home.howText')}</p>
      <p><a href="/how-it-works">${t('web.nav.howItWorks')}</a> · <a href="/commissions">${t('web.nav.commissions')}</a></p>
    </section>
  `;
  return renderPage(context, {
    title: t('web.siteName'),
    description: t('web.home.description'),
    canonicalPath: '/',
    body,
    image: first ? { url: variantUrl(first.id, 'small'), alt: first.description ?? t('web.home.title') } : null,
  });
}
