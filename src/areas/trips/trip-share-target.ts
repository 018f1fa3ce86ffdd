/**
 * A trip as a target of share links (docs/api.md, Share links): what an anonymous visitor of the trip
 * sees (findVisible(null, …): its public photos, cities rather than positions), whoever opens the link.
 * A hidden trip opens for nobody but its owner: its links answer 404 until the owner shows it again.
 */
import type { Locale } from '../../platform/i18n/i18n.ts';
import { type ShareTarget, targetNotFound } from '../share-links/public.ts';
import { tripCities } from './trip-title.ts';
import type { TripsService } from './trips.service.ts';

export function tripShareTarget(trips: TripsService): ShareTarget {
  return {
    async requireOwn(ownerId, targetId) {
      const view = await trips.findVisible(ownerId, targetId);
      if (view === null || view.trip.ownerId !== ownerId) throw targetNotFound();
    },
    async view(ownerId, targetId, locale: Locale) {
      const view = await trips.findVisible(null, targetId);
      if (view === null || view.trip.ownerId !== ownerId) return null;
      return {
        kind: 'trip',
        title: trips.titleOf(view, locale),
        caption: view.cities.length === 0 ? null : tripCities(view, locale),
        photos: view.photos.map((photo) => ({
          mediaId: photo.id,
          width: photo.width,
          height: photo.height,
          description: photo.description,
          takenAt: photo.time,
          authorSensitive: photo.authorSensitive,
          contentWarning: photo.contentWarning,
        })),
      };
    },
  };
}
