/** The geographic media routes: nearby, recommended nearby, trending in a country, and the map's box. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { countryCodes } from '../../platform/text/country-codes.ts';
import { MediaSchema, presentMedia } from '../media/public.ts';
import { boxQuery, checkedBox, Distance, Latitude, Longitude, Personalize, personalizes } from './geo-inputs.ts';
import { recommendedKeyset, trendingKeyset } from './geo-media.repository.ts';
import { nearbyDistance, recommendedDistance, trendingWindow } from './geo-media.service.ts';
import { nearbyKeyset } from './nearby.repository.ts';
import {
  MapClusterSchema,
  NearbyMediaSchema,
  presentMapCluster,
  presentNearbyMedia,
  presentTrendingMedia,
  TrendingMediaSchema,
} from './presenters.ts';
import type { DiscoveryServices } from './public.ts';

const mapLimit = { default: 100, max: 500 } as const;

export function geoMediaRoutes({ geoMedia }: Pick<DiscoveryServices, 'geoMedia'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/media/nearby',
      auth: 'optional',
      summary: 'Media placed in public around a position, nearest first, each with its distance',
      query: {
        lat: Latitude('Latitude of the centre, degrees'),
        lng: Longitude('Longitude of the centre, degrees'),
        distance: Distance(nearbyDistance),
      },
      page: { keyset: nearbyKeyset },
      success: { status: 200, schema: CollectionSchema(NearbyMediaSchema, { distance: Type.Number() }) },
      handler: async ({ viewer, query, page, links }) => {
        const at = { latitude: query.lat, longitude: query.lng };
        const rows = await geoMedia.nearby(viewer?.userId ?? null, at, query.distance, page);
        return listDocument(
          rows,
          { page, links },
          nearbyKeyset,
          (row: (typeof rows)[number]) => presentNearbyMedia(row),
          {
            distance: query.distance,
          },
        );
      },
    }),
    route({
      method: 'GET',
      path: '/api/media/recommended/nearby',
      auth: 'optional',
      summary: "Most liked media around a position or the viewer's birth city, through the viewer's topics",
      query: {
        lat: Type.Optional(Latitude("Latitude of the centre (default: the viewer's birth city)")),
        lng: Type.Optional(Longitude("Longitude of the centre (default: the viewer's birth city)")),
        distance: Distance(recommendedDistance),
        personalize: Personalize,
      },
      page: { keyset: recommendedKeyset },
      errors: ['validationFailed'],
      success: {
        status: 200,
        schema: CollectionSchema(NearbyMediaSchema, { distance: Type.Number(), personalized: Type.Boolean() }),
      },
      handler: async ({ viewer, query, page, links }) => {
        const personalize = personalizes(query.personalize);
        const rows = await geoMedia.recommended(
          viewer?.userId ?? null,
          { latitude: query.lat, longitude: query.lng, distance: query.distance, personalize },
          page,
        );
        return listDocument(rows, { page, links }, recommendedKeyset, presentNearbyMedia, {
          distance: query.distance,
          personalized: personalize && viewer !== null,
        });
      },
    }),
    route({
      method: 'GET',
      path: '/api/media/trending',
      auth: 'optional',
      summary: "Media of a country by likes over the last days (default country: the viewer's birth city's)",
      query: {
        country: Type.Optional(
          Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code, any case' }),
        ),
        windowDays: Type.Integer({
          minimum: 1,
          maximum: trendingWindow.maxDays,
          default: trendingWindow.defaultDays,
          description: `Days of likes counted, 1 to ${trendingWindow.maxDays} (default ${trendingWindow.defaultDays})`,
        }),
        personalize: Personalize,
      },
      page: { keyset: trendingKeyset },
      errors: ['validationFailed'],
      success: {
        status: 200,
        schema: CollectionSchema(TrendingMediaSchema, {
          country: Type.String(),
          windowDays: Type.Integer(),
          personalized: Type.Boolean(),
        }),
      },
      handler: async ({ viewer, query, page, links }) => {
        const country = query.country?.toUpperCase();
        if (country !== undefined && !countryCodes.has(country)) {
          throw new AppError('invalidQueryParameter', {
            source: { parameter: 'country' },
            detail: 'not an ISO 3166-1 alpha-2 country code',
          });
        }
        const personalize = personalizes(query.personalize);
        const { country: shown, rows } = await geoMedia.trending(
          viewer?.userId ?? null,
          { country, windowDays: query.windowDays, personalize },
          page,
        );
        return listDocument(rows, { page, links }, trendingKeyset, presentTrendingMedia, {
          country: shown,
          windowDays: query.windowDays,
          personalized: personalize && viewer !== null,
        });
      },
    }),
    route({
      method: 'GET',
      path: '/api/media/in-bounds',
      auth: 'optional',
      summary: 'What a map shows of a box: its media, or clusters when it holds more than the limit',
      description:
        'Answers `meta.mode` "media" with every media placed in public in the box (most liked first) when ' +
        'there are at most `limit`, else "clusters": one `mapClusters` resource per non-empty cell of the ' +
        "zoom's grid (cells of 45/2^zoom degrees), each with its count, the mean position of its media, " +
        "its bounds, its most liked media (relationship `representative`) and that media's thumbnail. The " +
        "zoom is at most one above the box's own (about 16 × 16 cells at most). Clusters at zoom 12 and " +
        'below are precomputed and kept current by every write and like (a photo counts as soon as it is public); ' +
        'deeper zooms are counted live.',
      query: {
        ...boxQuery,
        limit: Type.Integer({
          minimum: 1,
          maximum: mapLimit.max,
          default: mapLimit.default,
          description: `Most media answered before clusters are shown, 1 to ${mapLimit.max} (default ${mapLimit.default})`,
        }),
      },
      success: {
        status: 200,
        schema: CollectionSchema(Type.Union([MediaSchema, MapClusterSchema]), {
          mode: Type.Union([Type.Literal('media'), Type.Literal('clusters')]),
          zoom: Type.Integer(),
        }),
      },
      handler: async ({ query, request, viewer }) => {
        const box = checkedBox({ south: query.south, west: query.west, north: query.north, east: query.east });
        const answer = await geoMedia.inBox(box, query.zoom, query.limit, viewer?.userId ?? null);
        const self = `${request.server.publicUrl}${request.url}`;
        const meta = { limit: query.limit, mode: answer.mode, zoom: answer.zoom };
        if (answer.mode === 'media') {
          return { data: answer.media.map((row) => presentMedia(row, null)), meta, links: { self } };
        }
        return {
          data: answer.cells.map((cell) => presentMapCluster(answer.zoom, cell)),
          meta,
          links: { self },
        };
      },
    }),
  ];
}
