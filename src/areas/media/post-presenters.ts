/** A post (docs/api.md, Posts) as the API shows it: the lead's caption and counters, its photos in order. */
import { Type } from 'typebox';
import { Nullable, RelationshipSchema, ResourceSchema, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import { toHex } from '../../platform/ids/ids.ts';
import { FilteredMeta, type FilterResult, filteredMeta } from '../filters/public.ts';
import { mediaVariantUrls } from './media-urls.ts';
import type { Post } from './posts.service.ts';
import { MediaSchema } from './presenters.ts';
import type { MediaRow } from './tables.ts';

const media = MediaSchema.properties.attributes.properties;

const PostPhotoSchema = Type.Object({
  id: Type.String({ description: "the photo's media id" }),
  hex: media.hex,
  order: Type.Integer({ description: 'its place in the post, 0 first' }),
  description: Nullable(Type.String({ description: "the photo's own text (alt text); the post's text is caption" })),
  width: media.width,
  height: media.height,
  urls: media.urls,
  position: media.position,
  place: media.place,
  takenAt: media.takenAt,
  sensitive: media.sensitive,
  contentWarning: media.contentWarning,
});

export const PostSchema = ResourceSchema(
  'posts',
  Type.Object({
    hex: media.hex,
    caption: Nullable(Type.String({ description: "the post's text: its lead media's description" })),
    hashtags: media.hashtags,
    photosCount: Type.Integer(),
    photos: Type.Array(PostPhotoSchema, { description: 'in order; to others, only the photos they may see' }),
    likesCount: media.likesCount,
    dislikesCount: media.dislikesCount,
    bookmarksCount: media.bookmarksCount,
    commentsCount: media.commentsCount,
    sensitive: media.sensitive,
    contentWarning: media.contentWarning,
    createdAt: Timestamp,
  }),
  Type.Object({ owner: RelationshipSchema('users'), lead: RelationshipSchema('media') }),
  'Post',
);

export const ListedPostSchema = Type.Object({ ...PostSchema.properties, meta: FilteredMeta }, { title: 'listedPost' });

function presentPhoto(photo: MediaRow, order: number, viewerId: string | null) {
  const { latitude, longitude } = photo;
  const shown = latitude !== null && longitude !== null && (photo.locationPublic || photo.ownerId === viewerId);
  return {
    id: photo.id,
    hex: toHex(photo.id),
    order,
    description: photo.altText,
    width: photo.width,
    height: photo.height,
    urls: mediaVariantUrls(photo),
    position: shown ? { latitude, longitude } : null,
    place: shown ? { cityId: photo.cityId, countryCode: photo.countryCode } : null,
    takenAt: formatNullableTimestamp(photo.takenAt),
    sensitive: photo.authorSensitive,
    contentWarning: photo.contentWarning,
  };
}

export function presentPost({ lead, photos }: Post, viewerId: string | null) {
  return {
    type: 'posts' as const,
    id: lead.id,
    attributes: {
      hex: toHex(lead.id),
      caption: lead.description,
      hashtags: lead.hashtags,
      photosCount: photos.length,
      photos: photos.map((photo, order) => presentPhoto(photo, order, viewerId)),
      likesCount: lead.likesCount,
      dislikesCount: lead.dislikesCount,
      bookmarksCount: lead.bookmarksCount,
      commentsCount: lead.commentsCount,
      sensitive: lead.authorSensitive,
      contentWarning: lead.contentWarning,
      createdAt: formatTimestamp(lead.createdAt),
    },
    relationships: {
      owner: { data: { type: 'users' as const, id: lead.ownerId } },
      lead: { data: { type: 'media' as const, id: lead.id } },
    },
  };
}

export function presentListedPost(post: Post & { filtered?: FilterResult[] }, viewerId: string | null) {
  return { ...presentPost(post, viewerId), ...filteredMeta(post.filtered ?? []) };
}
