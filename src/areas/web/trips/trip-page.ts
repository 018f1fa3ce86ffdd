/**
 * GET /trips/{tripId}: a trip as the viewer may see it: its title, dates, distance, cities and
 * countries, the route drawn on the offline map (assets/client/trip.ts loads GET /api/trips/{id}/route),
 * and its photos in time order.
 */

import { regionName } from '../../../platform/i18n/locale-formats.ts';
import { toHex } from '../../../platform/ids/ids.ts';
import { feedPathOf, oembedPath } from '../../syndication/public.ts';
import { type TripView, tripCities, tripPagePath, tripTitle } from '../../trips/public.ts';
import { assetUrl } from '../assets/client-assets.ts';
import type { MapSettings } from '../explorer/explorer-page.ts';
import { html } from '../layout/html.ts';
import type { PageContext } from '../layout/page-context.ts';
import { renderPage } from '../layout/render-page.ts';
import { profilePath, type Translate, translator, variantUrl } from '../pages/components.ts';
import { behindWarning } from '../pages/content-warning.ts';

export const tripPath = tripPagePath;

export interface TripPage {
  view: TripView;
  owner: { username: string; nickname: string };
}

/** A photo of a trip: its thumbnail (behind its warning when marked sensitive), linking to the large variant. */
export function tripPhoto(t: Translate, photo: TripView['photos'][number], label: string, blur: boolean, id: string) {
  const image = html`<a href=${variantUrl(photo.id, 'large')}>
    <img src=${variantUrl(photo.id, 'thumb')} alt=${photo.description?.trim() || label} width="320" height="320" loading="lazy" decoding="async" />
  </a>`;
  return behindWarning(t, photo, `reveal-${id}-${toHex(photo.id)}`, blur, image);
}

export function renderTripPage(context: PageContext, page: TripPage, map: MapSettings): string {
  const t = translator(context.locale);
  const { view, owner } = page;
  const title = tripTitle(view, context.locale);
  const places = tripCities(view, context.locale);
  const body = html`
    <article class="trip" data-trip=${view.trip.id}>
      <h1>${title}</h1>
      <p class="trip__meta">
        <a href=${profilePath(owner.username)}>${t('trips.page.by', { name: owner.nickname })}</a>${' · '}${t('trips.page.dates', { start: view.startsAt, end: view.endsAt })}${' · '}${t('trips.page.distance', { km: Math.round(view.distanceMetres / 1000) })}
      </p>
      ${view.trip.hidden ? html`<p class="trip__hidden" role="note">${t('trips.page.hidden')}</p>` : null}
      <div
        id="trip-map"
        class="trip__map"
        role="region"
        aria-label=${t('trips.page.mapLabel')}
        data-route=${`/api/trips/${view.trip.id}/route`}
        data-locale=${context.locale}
        data-world=${assetUrl('world-110m.json')}
        data-world-fine=${assetUrl('world-50m.json')}
        data-tile-url=${map.tileUrl ?? undefined}
        data-tile-attribution=${map.tileUrl ? (map.tileAttribution ?? '') : undefined}
        data-shapes=${t('explorer.naturalEarth')}
        data-load-failed=${t('trips.page.loadFailed')}
      ></div>
      <noscript><p>${t('trips.page.needsScript')}</p></noscript>
      <div class="trip__places">
        <section aria-labelledby="trip-cities">
          <h2 id="trip-cities">${t('trips.page.cities')}</h2>
          <ol class="trip__list">${view.cities.map((city) => html`<li>${city.name}</li>`)}</ol>
        </section>
        <section aria-labelledby="trip-countries">
          <h2 id="trip-countries">${t('trips.page.countries')}</h2>
          <ol class="trip__list">${view.countries.map((code) => html`<li>${regionName(context.locale, code)}</li>`)}</ol>
        </section>
      </div>
      <section aria-labelledby="trip-photos">
        <h2 id="trip-photos">${t('trips.page.photos')}</h2>
        <ol class="trip__photos">
          ${view.photos.map(
            (photo, index) =>
              html`<li>${tripPhoto(t, photo, t('trips.page.photo', { n: index + 1 }), context.blurSensitiveMedia, 'trip')}</li>`,
          )}
        </ol>
      </section>
    </article>`;
  const [cover] = view.photos;
  return renderPage(context, {
    title,
    description: t('trips.page.description', { count: view.photos.length, places: places || title }),
    canonicalPath: tripPath(view.trip.id),
    body,
    styles: [assetUrl('trip.css')],
    scripts: [assetUrl('trip.js')],
    noIndex: view.trip.hidden,
    // A hidden trip has no feed nor embed (they answer 404): only its owner sees this page.
    alternates: view.trip.hidden
      ? []
      : [
          { type: 'application/rss+xml', href: feedPathOf(tripPath(view.trip.id), 'rss'), title: `${title} (RSS)` },
          { type: 'application/atom+xml', href: feedPathOf(tripPath(view.trip.id), 'atom'), title: `${title} (Atom)` },
          {
            type: 'application/json+oembed',
            href: oembedPath(`${context.baseUrl}${tripPath(view.trip.id)}`),
            title,
          },
        ],
    image: cover && !cover.authorSensitive ? { url: variantUrl(cover.id, 'small'), alt: title } : null,
  });
}
