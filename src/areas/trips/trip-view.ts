/**
 * A trip as one viewer sees it: its photos they may see, the cities and countries of those, and the
 * route through them, where a position that is not public stands, for anyone but the owner, at its
 * city's point (docs/api.md, Trips: private positions never leave the owner).
 */
import { type Position, routeMetres } from './geodesy.ts';
import type { TripRow } from './tables.ts';
import type { TripPhotoSeen } from './trips.repository.ts';

export interface TripCity {
  id: string;
  name: string;
  countryCode: string | null;
}

export interface TripView {
  trip: TripRow;
  /** The viewer is the owner: every position is theirs to see. */
  ownView: boolean;
  /** The photos the viewer may see, in time order (never empty). */
  photos: TripPhotoSeen[];
  startsAt: Date;
  endsAt: Date;
  cities: TripCity[];
  countries: string[];
  route: Position[];
  distanceMetres: number;
}

/** The view of a trip from its visible photos; null when the viewer sees none of them. */
export function tripView(trip: TripRow, photos: TripPhotoSeen[], viewerId: string | null): TripView | null {
  const first = photos[0];
  const last = photos.at(-1);
  if (first === undefined || last === undefined) return null;
  const ownView = viewerId === trip.ownerId;
  const cities = new Map<string, TripCity>();
  const countries = new Set<string>();
  const route: Position[] = [];
  for (const photo of photos) {
    if (photo.cityId !== null && photo.cityName !== null && !cities.has(photo.cityId))
      cities.set(photo.cityId, { id: photo.cityId, name: photo.cityName, countryCode: photo.countryCode });
    if (photo.countryCode !== null) countries.add(photo.countryCode);
    const point = pointSeen(photo, ownView);
    if (point !== null) route.push(point);
  }
  return {
    trip,
    ownView,
    photos,
    startsAt: first.time,
    endsAt: last.time,
    cities: [...cities.values()],
    countries: [...countries],
    route,
    distanceMetres: Math.round(routeMetres(route)),
  };
}

/** The photo's own position for the owner or when public; else its city's point; else none. */
function pointSeen(photo: TripPhotoSeen, ownView: boolean): Position | null {
  if ((ownView || photo.locationPublic) && photo.latitude !== null && photo.longitude !== null)
    return { latitude: photo.latitude, longitude: photo.longitude };
  if (photo.cityLatitude !== null && photo.cityLongitude !== null)
    return { latitude: photo.cityLatitude, longitude: photo.cityLongitude };
  return null;
}

/** Whether the viewer may see this photo's exact position. */
export const positionShown = (photo: TripPhotoSeen, view: TripView): boolean => view.ownView || photo.locationPublic;
