import { Type } from 'typebox';
import { Nullable, RelationshipSchema, ResourceSchema, StringEnum, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import { toHex } from '../../platform/ids/ids.ts';
import { FilteredMeta, type FilterResult, filteredMeta } from '../filters/public.ts';
import { mediaVariantUrls } from './media-urls.ts';
import type { ListedMedia } from './read-model.ts';

const VariantUrlsSchema = Type.Object(
  {
    thumb: Type.String(),
    small: Type.String(),
    large: Type.String(),
    original: Type.String(),
  },
  { description: 'Paths (relative to the service base URL) of the WebP variants and of the original format' },
);

/** A media as the API shows it; `position` is null unless public or the viewer is the owner. */
export const MediaSchema = ResourceSchema(
  'media',
  Type.Object({
    hex: Type.String({ description: '32 hex digits, the id without dashes' }),
    kind: StringEnum(['post', 'avatar', 'cover']),
    description: Nullable(Type.String()),
    hashtags: Type.Array(Type.String()),
    width: Type.Integer(),
    height: Type.Integer(),
    urls: VariantUrlsSchema,
    likesCount: Type.Integer(),
    dislikesCount: Type.Integer(),
    bookmarksCount: Type.Integer(),
    commentsCount: Type.Integer(),
    position: Nullable(Type.Object({ latitude: Type.Number(), longitude: Type.Number() })),
    place: Nullable(
      Type.Object(
        { cityId: Nullable(Type.String({ format: 'uuid' })), countryCode: Nullable(Type.String()) },
        { description: 'the reverse-geocoded city (GET /api/cities/{id}) and country; null when position is' },
      ),
    ),
    takenAt: Nullable(Timestamp),
    createdAt: Timestamp,
    sensitive: Type.Boolean({
      description: 'shown behind a content warning (its author or a moderator said so); still listed',
    }),
    contentWarning: Nullable(Type.String({ description: "the warning's text; null: none (or not sensitive)" })),
    photosCount: Type.Integer({
      description: 'an extension (docs/api.md, Posts): on a post, how many photos it holds (1 for a single photo)',
    }),
  }),
  Type.Object({ owner: RelationshipSchema('users'), post: Type.Optional(RelationshipSchema('posts')) }),
  'Media',
);

/** The owner's own view adds what only they (and operators) see. */
export const OwnMediaSchema = ResourceSchema(
  'media',
  Type.Object({
    ...MediaSchema.properties.attributes.properties,
    published: Type.Boolean(),
    flag: Type.Integer(),
    locationPublic: Type.Boolean(),
    describeStatus: Type.String(),
    contentWarningByModerator: Type.Boolean({
      description: 'a moderator set the content warning: only a moderator may change or lift it',
    }),
  }),
  MediaSchema.properties.relationships,
  'OwnMedia',
);

export function presentMedia(row: ListedMedia, viewerId: string | null) {
  const isOwner = viewerId !== null && viewerId === row.ownerId;
  const { latitude, longitude } = row;
  const showPosition = latitude !== null && longitude !== null && (row.locationPublic || isOwner);
  const hex = toHex(row.id);
  return {
    type: 'media' as const,
    id: row.id,
    attributes: {
      hex,
      kind: row.kind,
      description: row.description,
      hashtags: row.hashtags,
      width: row.width,
      height: row.height,
      urls: mediaVariantUrls(row, hex),
      likesCount: row.likesCount,
      dislikesCount: row.dislikesCount,
      bookmarksCount: row.bookmarksCount,
      commentsCount: row.commentsCount,
      position: showPosition ? { latitude, longitude } : null,
      place: showPosition ? { cityId: row.cityId, countryCode: row.countryCode } : null,
      takenAt: formatNullableTimestamp(row.takenAt),
      createdAt: formatTimestamp(row.createdAt),
      sensitive: row.authorSensitive,
      contentWarning: row.contentWarning,
      photosCount: row.photosCount,
    },
    relationships: {
      owner: { data: { type: 'users' as const, id: row.ownerId } },
      // The post this photo is in (its id is the lead's; a photo never put in one is a post of one).
      post: { data: row.kind === 'post' ? { type: 'posts' as const, id: row.postId ?? row.id } : null },
    },
  };
}

export function presentOwnMedia(row: ListedMedia) {
  const own = presentMedia(row, row.ownerId);
  // The owner's fields after the others, set on the attributes just made: no object copied, none
  // made only to be copied (a page of my media is twenty of these).
  const attributes: typeof own.attributes & Partial<OwnFields> = own.attributes;
  attributes.published = row.published;
  attributes.flag = row.flag;
  attributes.locationPublic = row.locationPublic;
  attributes.describeStatus = row.describeStatus;
  attributes.contentWarningByModerator = row.contentWarningByModerator;
  return own as typeof own & { attributes: typeof own.attributes & OwnFields };
}

type OwnFields = Pick<
  ListedMedia,
  'published' | 'flag' | 'locationPublic' | 'describeStatus' | 'contentWarningByModerator'
>;

/** A media in a list the viewer's keyword filters apply to: `meta.filtered` when a warn filter matched it. */
export const ListedMediaSchema = Type.Object(
  { ...MediaSchema.properties, meta: FilteredMeta },
  { title: 'listedMedia' },
);

export function presentListedMedia(row: ListedMedia & { filtered?: FilterResult[] }, viewerId: string | null) {
  // `meta` set on the resource just made (a list presents twenty of these), not a copy of it.
  return Object.assign(presentMedia(row, viewerId), filteredMeta(row.filtered ?? []));
}
