/**
 * The face of trips: its service, and what other areas may import of it (docs/development.md, How
 * areas talk). Share links, feeds and embeds read a trip through `trips.findVisible(viewerId, tripId)`
 * (the trip as the viewer sees it, or null), `photosOf`, `titleOf(view, locale)` and `routeOf`.
 */
import type { TripsService } from './trips.service.ts';

export interface TripsServices {
  trips: TripsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    trips: TripsServices;
  }
}

export { presentTrip, TripSchema } from './presenters.ts';
export type { RouteGeometry } from './route-geometry.ts';
export { embedTripPath, tripPagePath } from './trip-paths.ts';
export { tripCities, tripTitle } from './trip-title.ts';
export type { TripCity, TripView } from './trip-view.ts';
export type { TripPhotoSeen } from './trips.repository.ts';
export type { TripsService } from './trips.service.ts';
