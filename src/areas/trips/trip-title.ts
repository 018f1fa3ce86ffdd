/**
 * A trip's title in the viewer's locale: the owner's, else the cities visited (at most three, by
 * number of photos, in order of first visit) and the dates ("Lyon · 14–15 Mar 2026").
 */
import { type Locale, translate } from '../../platform/i18n/i18n.ts';
import { formatDayRange, formatList } from '../../platform/i18n/locale-formats.ts';
import type { TripView } from './trip-view.ts';

export const titledCities = 3;

export function tripTitle(view: TripView, locale: Locale): string {
  if (view.trip.customTitle !== null) return view.trip.customTitle;
  const dates = formatDayRange(locale, view.startsAt, view.endsAt);
  const counts = new Map<string, number>();
  for (const photo of view.photos)
    if (photo.cityId !== null) counts.set(photo.cityId, (counts.get(photo.cityId) ?? 0) + 1);
  const shown = [...view.cities]
    .map((city, order) => ({ city, order, photos: counts.get(city.id) ?? 0 }))
    .sort((a, b) => b.photos - a.photos || a.order - b.order)
    .slice(0, titledCities)
    .sort((a, b) => a.order - b.order)
    .map(({ city }) => city.name);
  if (shown.length === 0) return translate(locale, 'trips.title.noCity', { dates });
  const places = formatList(locale, shown);
  return translate(locale, 'trips.title', { places, dates });
}

/** Every city the trip visited, in order of first visit, as a list in the locale ("Lyon, Annecy and Paris"); '' when none. */
export const tripCities = (view: TripView, locale: Locale): string =>
  formatList(
    locale,
    view.cities.map((city) => city.name),
  );
