/** Trips: a user's trips, one trip and its route, the owner's edits and home position (docs/api.md, Trips). */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, DocumentSchema, Nullable } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';
import { presentTrip, presentTripHome, TripHomeSchema, TripSchema } from './presenters.ts';
import type { TripsServices } from './public.ts';
import { tripsKeyset } from './trips.repository.ts';
import { type TripEdit, tripTitleMaxLength } from './trips.service.ts';

const tripParams = { tripId: idParam('The trip UUID', { hex: false }) };
const OneTrip = DocumentSchema(TripSchema);
const editLimits = [perIp('trips-edit', 300, 3600), perUser('trips-edit', 60, 3600)];
const homeLimits = [perIp('trip-home', 300, 3600), perUser('trip-home', 60, 3600)];

const EditBody = Type.Object(
  {
    title: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: tripTitleMaxLength,
          description: '1 to 120 characters; null: the computed title',
        }),
      ),
    ),
    hidden: Type.Optional(Type.Boolean({ description: 'hide the trip from others, or show it again' })),
    splitAt: Type.Optional(
      Type.String({ description: 'a photo of the trip (media UUID or 32 hex): it and those after form a new trip' }),
    ),
    mergeWith: Type.Optional(Type.String({ description: 'another of my trips (UUID): its photos join this one' })),
  },
  { additionalProperties: false },
);

const HomeBody = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
  },
  { additionalProperties: false },
);

/** One kind of change a request: fields (title, hidden), a split or a merge. */
function tripEditOf(body: { title?: string | null; hidden?: boolean; splitAt?: string; mergeWith?: string }): TripEdit {
  const kinds = [
    body.title !== undefined || body.hidden !== undefined,
    body.splitAt !== undefined,
    body.mergeWith !== undefined,
  ];
  if (kinds.filter(Boolean).length !== 1)
    throw new AppError('validationFailed', {
      source: { pointer: '' },
      detail: 'give title and/or hidden, or splitAt, or mergeWith',
    });
  if (body.splitAt !== undefined) {
    const atPhotoId = parseUuidOrHex(body.splitAt);
    if (atPhotoId === null)
      throw new AppError('validationFailed', { source: { pointer: '/splitAt' }, detail: 'not a media id' });
    return { kind: 'split', atPhotoId };
  }
  if (body.mergeWith !== undefined) {
    const otherTripId = parseUuidOrHex(body.mergeWith);
    if (otherTripId === null)
      throw new AppError('validationFailed', { source: { pointer: '/mergeWith' }, detail: 'not a trip id' });
    return { kind: 'merge', otherTripId };
  }
  return {
    kind: 'fields',
    ...(body.title === undefined ? {} : { title: body.title === null ? null : body.title.trim() || null }),
    ...(body.hidden === undefined ? {} : { hidden: body.hidden }),
  };
}

export function tripsRoutes({ trips }: Pick<TripsServices, 'trips'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/users/{userId}/trips',
      auth: 'optional',
      summary: "A user's trips, latest first (keyset over startsAt, id); hidden ones only for their owner",
      params: { userId: idParam('UUID or 32 hex digits') },
      page: { keyset: tripsKeyset },
      errors: ['notFound'],
      success: { status: 200, schema: CollectionSchema(TripSchema) },
      handler: async ({ viewer, params, page, links, locale }) => {
        const { rows, views } = await trips.list(params.userId, viewer?.userId ?? null, page);
        return listDocument(rows, { page, links }, tripsKeyset, (row) => {
          const view = views.get(row.id);
          if (view === undefined) throw new Error(`trip ${row.id} has no view`);
          return presentTrip(view, locale);
        });
      },
    }),
    route({
      method: 'GET',
      path: '/api/trips/{tripId}',
      auth: 'optional',
      summary: 'One trip, as the viewer may see it',
      params: tripParams,
      errors: ['notFound'],
      success: { status: 200, schema: OneTrip },
      handler: async ({ viewer, params, locale }) => ({
        data: presentTrip(await trips.get(viewer?.userId ?? null, params.tripId), locale),
      }),
    }),
    route({
      method: 'GET',
      path: '/api/trips/{tripId}/route',
      auth: 'optional',
      summary: "A trip's route as a GeoJSON Feature (application/geo+json), simplified, cut at the antimeridian",
      params: tripParams,
      errors: ['notFound'],
      success: {
        status: 200,
        mediaType: 'application/geo+json',
        description: 'A GeoJSON Feature: a LineString, a MultiLineString cut at ±180°, a Point, or no geometry',
      },
      handler: async ({ viewer, params, reply }) => {
        const found = await trips.routeOf(viewer?.userId ?? null, params.tripId);
        if (found === null) throw new AppError('notFound', { source: { parameter: 'tripId' } });
        const feature = {
          type: 'Feature',
          geometry: found.geometry,
          properties: {
            tripId: found.view.trip.id,
            photoCount: found.view.photos.length,
            distanceMetres: found.view.distanceMetres,
          },
        };
        return reply.header('Content-Type', 'application/geo+json').send(JSON.stringify(feature));
      },
    }),
    route({
      method: 'PATCH',
      path: '/api/users/me/trips/{tripId}',
      auth: 'user',
      summary: 'Rename, hide or show, split at a photo, or merge another of my trips into this one',
      params: tripParams,
      body: EditBody,
      rateLimit: editLimits,
      errors: ['notFound'],
      success: {
        status: 200,
        schema: DocumentSchema(TripSchema, {
          meta: Type.Object({ newTripId: Nullable(Type.String({ description: 'the trip a split made' })) }),
        }),
      },
      handler: async ({ viewer, params, body, locale }) => {
        const { view, newTripId } = await trips.edit(viewer.userId, params.tripId, tripEditOf(body));
        return { data: presentTrip(view, locale), meta: { newTripId } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/trips/{tripId}',
      auth: 'user',
      summary: 'Hide one of my trips (the grouping, never the photos); PATCH hidden false shows it again',
      params: tripParams,
      rateLimit: editLimits,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => trips.hide(viewer.userId, params.tripId),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/trip-home',
      auth: 'user',
      summary: 'The home position my trips are measured from (private)',
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(TripHomeSchema) },
      handler: async ({ viewer }) => {
        const home = await trips.home(viewer.userId);
        if (home === null) throw new AppError('notFound', { detail: 'no home position is set' });
        return { data: presentTripHome(viewer.userId, home) };
      },
    }),
    route({
      method: 'PUT',
      path: '/api/users/me/trip-home',
      auth: 'user',
      summary: 'Set the home position my trips are measured from; my trips are recomputed',
      body: HomeBody,
      rateLimit: homeLimits,
      success: { status: 200, schema: DocumentSchema(TripHomeSchema) },
      handler: async ({ viewer, body }) => ({
        data: presentTripHome(viewer.userId, await trips.setHome(viewer.userId, body)),
      }),
    }),
    route({
      method: 'DELETE',
      path: '/api/users/me/trip-home',
      auth: 'user',
      summary:
        'Clear my home position (back to the birth city, else my most photographed city); my trips are recomputed',
      rateLimit: homeLimits,
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer }) => trips.clearHome(viewer.userId),
    }),
  ];
}
