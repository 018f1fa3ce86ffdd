/** A trip as a JSON:API resource, for the viewer it was computed for (trip-view.ts). */
import { Type } from 'typebox';
import {
  Nullable,
  RelationshipSchema,
  ResourceSchema,
  relation,
  resource,
  Timestamp,
} from '../../platform/http/jsonapi.ts';
import { formatTimestamp } from '../../platform/http/time.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { tripTitle } from './trip-title.ts';
import type { TripView } from './trip-view.ts';

export const TripSchema = ResourceSchema(
  'trips',
  Type.Object({
    title: Type.String({ description: "the owner's title, else the cities and dates in the viewer's locale" }),
    customTitle: Nullable(Type.String({ description: "the owner's title, or null" })),
    startsAt: Timestamp,
    endsAt: Timestamp,
    photoCount: Type.Integer({ description: 'the photos the viewer may see' }),
    photoIds: Type.Array(Type.String({ format: 'uuid' }), { description: 'the media ids, in time order' }),
    coverMediaId: Type.String({ format: 'uuid', description: 'the first photo' }),
    countries: Type.Array(Type.String(), { description: 'ISO 3166 alpha-2 codes, in order of first visit' }),
    cities: Type.Array(
      Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), countryCode: Nullable(Type.String()) }),
      { description: 'in order of first visit' },
    ),
    distanceMetres: Type.Integer({ description: 'great-circle length of the route the viewer sees' }),
    hidden: Type.Boolean({ description: 'hidden by its owner (only the owner sees it)' }),
    frozen: Type.Boolean({ description: 'edited by its owner: recomputation keeps its photos' }),
  }),
  Type.Object({ owner: RelationshipSchema('users') }),
  'Trip',
);

export function presentTrip(view: TripView, locale: Locale) {
  const { trip } = view;
  const [cover] = view.photos;
  return resource(
    'trips',
    trip.id,
    {
      title: tripTitle(view, locale),
      customTitle: trip.customTitle,
      startsAt: formatTimestamp(view.startsAt),
      endsAt: formatTimestamp(view.endsAt),
      photoCount: view.photos.length,
      photoIds: view.photos.map((photo) => photo.id),
      coverMediaId: cover?.id ?? '',
      countries: view.countries,
      cities: view.cities,
      distanceMetres: view.distanceMetres,
      hidden: trip.hidden,
      frozen: trip.frozen,
    },
    { owner: relation('users', trip.ownerId) },
  );
}

export const TripHomeSchema = ResourceSchema(
  'tripHomes',
  Type.Object({
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
  }),
  undefined,
  'TripHome',
);

export const presentTripHome = (userId: string, home: { latitude: number; longitude: number }) =>
  resource('tripHomes', userId, { latitude: home.latitude, longitude: home.longitude });
