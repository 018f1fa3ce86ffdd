/** Geographic lists' resources: media with their distance or window likes, and the map's clusters. */
import { Type } from 'typebox';
import { Nullable, RelationshipSchema, ResourceSchema } from '../../platform/http/jsonapi.ts';
import { FilteredSchema, type FilterResult, withFiltered } from '../filters/public.ts';
import { MediaSchema, presentMedia, thumbnailPath } from '../media/public.ts';
import type { DistancedMedia, LikedMedia } from './geo-media.repository.ts';
import { clusterBlurCount } from './geo-media.service.ts';
import type { MapCell } from './map-cells.repository.ts';
import { cellBounds } from './map-grid.ts';

export const NearbyMediaSchema = Type.Object(
  {
    ...MediaSchema.properties,
    meta: Type.Object({
      distance: Type.Integer({ description: 'Metres from the centre, rounded' }),
      filtered: Type.Optional(FilteredSchema),
    }),
  },
  { title: 'NearbyMedia' },
);

export const TrendingMediaSchema = Type.Object(
  {
    ...MediaSchema.properties,
    meta: Type.Object({
      windowLikes: Type.Integer({ description: 'Likes received within the window' }),
      filtered: Type.Optional(FilteredSchema),
    }),
  },
  { title: 'TrendingMedia' },
);

const PositionSchema = Type.Object({ latitude: Type.Number(), longitude: Type.Number() });
const BoundsSchema = Type.Object({
  south: Type.Number(),
  west: Type.Number(),
  north: Type.Number(),
  east: Type.Number(),
});

/** A cell of the map's grid at the answer's zoom: how many media it holds and where they are. */
export const MapClusterSchema = ResourceSchema(
  'mapClusters',
  Type.Object({
    count: Type.Integer({ description: 'Media placed in public in this cell' }),
    position: PositionSchema,
    bounds: BoundsSchema,
    thumbnail: Nullable(
      Type.String({ description: "Path of the representative's thumbnail (WebP), to draw on the map" }),
    ),
  }),
  Type.Object({ representative: RelationshipSchema('media') }),
  'MapCluster',
);

// The meta is added to the resource just made, after its other members, rather than copying them.
export const presentNearbyMedia = (row: DistancedMedia & { filtered?: FilterResult[] }) =>
  Object.assign(presentMedia(row, null), {
    meta: withFiltered({ distance: Math.round(row.distance) }, row.filtered),
  });

export const presentTrendingMedia = (row: LikedMedia & { filtered?: FilterResult[] }) =>
  Object.assign(presentMedia(row, null), { meta: withFiltered({ windowLikes: row.windowLikes }, row.filtered) });

export function presentMapCluster(zoom: number, cell: MapCell) {
  const representative =
    cell.representativeLatitude === null || cell.representativeLongitude === null
      ? null
      : { latitude: cell.representativeLatitude, longitude: cell.representativeLongitude };
  const representativeId = representative === null ? null : cell.representativeId;
  const position =
    cell.mediaCount >= clusterBlurCount || representative === null
      ? { latitude: cell.latitude, longitude: cell.longitude }
      : representative;
  return {
    type: 'mapClusters' as const,
    id: `${zoom}/${cell.cellY}/${cell.cellX}`,
    attributes: {
      count: cell.mediaCount,
      position,
      bounds: cellBounds(zoom, cell.cellY, cell.cellX),
      thumbnail: representativeId === null ? null : thumbnailPath(representativeId),
    },
    relationships: {
      representative: { data: representativeId === null ? null : { type: 'media' as const, id: representativeId } },
    },
  };
}
