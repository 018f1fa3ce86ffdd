import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, integer, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { earthPoint, timestamptz } from '../../platform/db/columns.ts';

export type MediaKind = 'post' | 'avatar' | 'cover';
export type DescribeStatus = 'pending' | 'claimed' | 'described' | 'failed' | 'skipped';

export const media = pgTable('media', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  kind: text('kind').$type<MediaKind>().notNull(),
  published: boolean('published').notNull().default(true),
  flag: smallint('flag').notNull().default(0),
  /** The owner is banned (kept by media on user.banned / user.unbanned): hidden as a hidden flag hides. */
  ownerBanned: boolean('owner_banned').notNull().default(false),
  /**
   * Marked sensitive (content-warnings.ts): listed as usual, shown behind a warning. Set by the author,
   * or imposed by a moderator (contentWarningByModerator). Not the moderators' flag.
   */
  authorSensitive: boolean('author_sensitive').notNull().default(false),
  /** The warning's text (1 to 200 characters); only on a sensitive media, which may also have none. */
  contentWarning: text('content_warning'),
  /** A moderator set the warning: the author may no longer change or lift it. */
  contentWarningByModerator: boolean('content_warning_by_moderator').notNull().default(false),
  describeStatus: text('describe_status').$type<DescribeStatus>().notNull().default('pending'),
  claimedUntil: timestamptz('claimed_until'),
  describeAttempts: integer('describe_attempts').notNull().default(0),
  failReason: text('fail_reason'),
  description: text('description'),
  descriptionLocale: text('description_locale'),
  hashtags: text('hashtags').array().notNull().default([]),
  originalKey: text('original_key').notNull(),
  originalFormat: text('original_format').notNull(),
  byteSize: integer('byte_size').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  contentHash: text('content_hash').notNull(),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  locationPublic: boolean('location_public').notNull().default(true),
  takenAt: timestamptz('taken_at'),
  cityId: uuid('city_id'),
  countryCode: text('country_code'),
  /** The position on the earth (cube), computed by PostgreSQL from latitude and longitude (migration 0260). */
  earthPosition: earthPoint('earth_position').generatedAlwaysAs(sql`ll_to_earth(latitude, longitude)`),
  /** When the position was reverse-geocoded (city and country filled, or none found); null: not yet. */
  geocodedAt: timestamptz('geocoded_at'),
  /** When the media-variants job rendered the common variants; null: queued for it (media-variants.job.ts). */
  variantsRenderedAt: timestamptz('variants_rendered_at'),
  /**
   * The post this photo belongs to (migration 1820, docs/api.md, Posts): the lead's id on every photo
   * of a post made with POST /api/users/me/posts, the lead's own included; null on a photo never put in
   * one. A photo whose postId is another media is a member: listed only through its post.
   */
  postId: uuid('post_id'),
  /** The photo's place in its post, 0 first. */
  postPosition: smallint('post_position').notNull().default(0),
  /** On a lead, how many photos its post holds; 1 on every other media. */
  photosCount: smallint('photos_count').notNull().default(1),
  /** The photo standing for its post on the map: the post's first photo whose position is public. */
  mapPhoto: boolean('map_photo').notNull().default(false),
  /** The photo's own text (alt text) in a post; the post's caption is the lead's description. */
  altText: text('alt_text'),
  likesCount: integer('likes_count').notNull().default(0),
  dislikesCount: integer('dislikes_count').notNull().default(0),
  bookmarksCount: integer('bookmarks_count').notNull().default(0),
  commentsCount: integer('comments_count').notNull().default(0),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
export type MediaRow = typeof media.$inferSelect;
