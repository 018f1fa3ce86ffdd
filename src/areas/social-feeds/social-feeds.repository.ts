/**
 * All SQL of social feeds. A feed's page is one statement: the feed row joined to its owner's media
 * (media's read model, listed-for-the-public rule) through the owner's index, newest first, each
 * criterion of the feed a condition that is true when the criterion is absent.
 */
import { and, eq, getTableColumns, gt, inArray, sql } from 'drizzle-orm';
import { nameOf } from '../../platform/db/column-names.ts';
import { newestFirst } from '../../platform/db/keyset.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { PreparedPage, PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { activeUser, type UserRow, userRows as users } from '../accounts/read-model.ts';
import { mediaFilterText, notHiddenByFilters } from '../filters/read-model.ts';
import { type ListedMedia, listedMediaColumns, mediaRows as media, mediaListedFor } from '../media/read-model.ts';
import { type SocialFeedRow, socialFeedMedia, socialFeeds } from './tables.ts';

/** A feed as its owner sees it: with its hand-picked media ids (empty for a feed by criteria). */
export type OwnSocialFeed = SocialFeedRow & { mediaIds: string[] };

export interface PublishedFeed {
  feed: SocialFeedRow;
  owner: UserRow;
}

/** The feeds of their owner, newest first. */
export const ownFeedsKeyset = newestFirst<OwnSocialFeed>('own-social-feeds', socialFeeds);
/** The media of a feed, newest first. */
export const feedMediaKeyset = newestFirst<ListedMedia>('social-feed-media', media);

// Qualified by hand: Drizzle leaves a single table's column names unqualified in select fields.
const feedId = sql`${socialFeeds}.${nameOf(socialFeeds.id)}`;
/** The hand-picked media of a feed (alias p), for subqueries on the feed in hand. */
const picked = {
  table: sql`${socialFeedMedia} AS p`,
  feedId: sql`p.${nameOf(socialFeedMedia.feedId)}`,
  mediaId: sql`p.${nameOf(socialFeedMedia.mediaId)}`,
};
const pickedIds = sql<string[]>`ARRAY(SELECT ${picked.mediaId}::text FROM ${picked.table}
  WHERE ${picked.feedId} = ${feedId} ORDER BY ${picked.mediaId})`;

export class SocialFeedsRepository extends Repository {
  async insert(row: SocialFeedRow, mediaIds: string[]): Promise<OwnSocialFeed> {
    const [inserted] = await this.db.insert(socialFeeds).values(row).returning();
    if (mediaIds.length > 0) {
      await this.db.insert(socialFeedMedia).values(mediaIds.map((mediaId) => ({ feedId: row.id, mediaId })));
    }
    return { ...returned(inserted, 'social_feeds.insert'), mediaIds: [...mediaIds].sort() };
  }

  async countOfOwner(ownerId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(socialFeeds)
      .where(eq(socialFeeds.ownerId, ownerId));
    return row?.count ?? 0;
  }

  /** Which of `ids` are posts of `ownerId` (in any state). */
  async ownPostIds(ownerId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: media.id })
      .from(media)
      .where(and(inArray(media.id, ids), eq(media.ownerId, ownerId), eq(media.kind, 'post')));
    return new Set(rows.map((row) => row.id));
  }

  /** An erased account (`user.erasing`): its feeds (their hand-picked media lists go with them). */
  async eraseUser(ownerId: string): Promise<void> {
    await this.db
      .delete(socialFeedMedia)
      .where(
        inArray(
          socialFeedMedia.feedId,
          this.db.select({ id: socialFeeds.id }).from(socialFeeds).where(eq(socialFeeds.ownerId, ownerId)),
        ),
      );
    await this.db.delete(socialFeeds).where(eq(socialFeeds.ownerId, ownerId));
  }

  /** Deletes one of the owner's feeds; false when the owner has no feed with this code. */
  async delete(ownerId: string, code: string): Promise<boolean> {
    const deleted = await this.db
      .delete(socialFeeds)
      .where(and(eq(socialFeeds.ownerId, ownerId), eq(socialFeeds.code, code)))
      .returning({ id: socialFeeds.id });
    return deleted.length > 0;
  }

  readonly #ofOwner = new PreparedPage<OwnSocialFeed>(
    this.source,
    'socialFeeds.ofOwner',
    ownFeedsKeyset,
    (db, where, orderBy) =>
      db
        .select({ ...getTableColumns(socialFeeds), mediaIds: pickedIds })
        .from(socialFeeds)
        .where(and(eq(socialFeeds.ownerId, sql.placeholder('ownerId')), where))
        .orderBy(...orderBy),
  );

  /** A feed by code, with its owner, unless the owner is banned, erased or being deleted (accounts' activeUser). */
  readonly #published = new PreparedRead(this.source, 'socialFeeds.published', (db) =>
    db
      .select({ feed: socialFeeds, owner: users })
      .from(socialFeeds)
      .innerJoin(users, eq(users.id, socialFeeds.ownerId))
      .where(and(eq(socialFeeds.code, sql.placeholder('code')), activeUser())),
  );

  readonly #media = new PreparedPage<ListedMedia>(
    this.source,
    'socialFeeds.media',
    feedMediaKeyset,
    (db, where, orderBy) =>
      db
        .select(listedMediaColumns)
        .from(socialFeeds)
        .innerJoin(media, eq(media.ownerId, socialFeeds.ownerId))
        .where(
          and(
            eq(socialFeeds.id, sql.placeholder('feedId')),
            mediaListedFor(null),
            sql`(${socialFeeds.hashtags} IS NULL OR ${media.hashtags} && ${socialFeeds.hashtags})`,
            sql`(${socialFeeds.countryCode} IS NULL OR (${media.locationPublic} AND ${media.countryCode} = ${socialFeeds.countryCode}))`,
            sql`(${socialFeeds.cityId} IS NULL OR (${media.locationPublic} AND ${media.cityId} = ${socialFeeds.cityId}))`,
            sql`(NOT ${socialFeeds.handPicked} OR EXISTS (SELECT 1 FROM ${picked.table} WHERE ${picked.feedId} = ${socialFeeds.id} AND ${picked.mediaId} = ${media.id}))`,
            notHiddenByFilters(sql.placeholder('hiddenBy'), mediaFilterText(media)),
            where,
          ),
        )
        .orderBy(...orderBy),
  );

  listOfOwner(ownerId: string, page: PageRequest): Promise<OwnSocialFeed[]> {
    return this.#ofOwner.run(page, { ownerId });
  }

  async findPublished(code: string): Promise<PublishedFeed | null> {
    const [row] = await this.#published.run({ code });
    return row ?? null;
  }

  /** One page of the feed's media: the owner's publicly listed posts that match the feed. */
  media(feedId: string, page: PageRequest, hiddenBy: string[]): Promise<ListedMedia[]> {
    return this.#media.run(page, { feedId, hiddenBy });
  }

  /** The data export's social feeds of a user, with their hand-picked media ids, in keyset batches by id. */
  async exportRows(ownerId: string, after: string | null, limit: number) {
    return this.db
      .select({
        ...getTableColumns(socialFeeds),
        handPickedMediaIds: sql<string[]>`coalesce((SELECT array_agg(${picked.mediaId} ORDER BY ${picked.mediaId})
          FROM ${picked.table} WHERE ${picked.feedId} = ${feedId}), '{}')`,
      })
      .from(socialFeeds)
      .where(and(eq(socialFeeds.ownerId, ownerId), after === null ? undefined : gt(socialFeeds.id, after)))
      .orderBy(socialFeeds.id)
      .limit(limit);
  }
}
