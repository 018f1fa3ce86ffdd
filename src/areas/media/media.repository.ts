/** All SQL of media rows: uploads, lists, the description queue, moderation. */
import { and, asc, eq, gt, inArray, lte, ne, or, sql } from 'drizzle-orm';
import { type Keyset, newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import { literal } from '../../platform/db/literals.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { PreparedPage } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { mediaFilterText, notHiddenByFilters } from '../filters/read-model.ts';
import type { ContentWarning } from './content-warnings.ts';
import { mediaFlags } from './media-flags.ts';
import { type ListedMedia, listedMediaColumns, notPostMember } from './read-model.ts';
import { type DescribeStatus, type MediaKind, type MediaRow, media } from './tables.ts';

export type NewMedia = typeof media.$inferInsert;
export type MediaPatch = Partial<Omit<NewMedia, 'id' | 'ownerId' | 'kind'>>;
/** How a media's counters move; areas that count (reactions, bookmarks) pass theirs. */
export interface CounterDelta {
  likes?: number;
  dislikes?: number;
  bookmarks?: number;
  comments?: number;
}

const newestMedia = (name: string): Keyset<MediaRow> => newestFirst<MediaRow>(name, media);

/** The lists of media rows, newest first. */
export const ownMediaKeyset = newestMedia('own-media');
export const userMediaKeyset = newestMedia('user-media');
export const describeQueueKeyset = newestMedia('describe-queue');

export class MediaRepository extends Repository {
  readonly #changeListeners: Array<(id: string) => void> = [];

  /** Called with the id of every row this repository updates or deletes (e.g. to drop cached copies). */
  onRowChanged(listener: (id: string) => void): void {
    this.#changeListeners.push(listener);
  }

  #changed(id: string): void {
    for (const listener of this.#changeListeners) listener(id);
  }

  /** Locks the row until the end of the transaction; false when there is no such media. */
  async lockRow(id: string): Promise<boolean> {
    this.noteRowLock('media', id);
    const rows = await this.db.select({ id: media.id }).from(media).where(eq(media.id, id)).for('no key update');
    return rows.length > 0;
  }

  async findById(id: string): Promise<MediaRow | null> {
    const [row] = await this.db.select().from(media).where(eq(media.id, id));
    return row ?? null;
  }

  async findPostById(id: string): Promise<MediaRow | null> {
    const [row] = await this.db
      .select()
      .from(media)
      .where(and(eq(media.id, id), eq(media.kind, 'post')));
    return row ?? null;
  }

  async insert(row: NewMedia): Promise<MediaRow> {
    const [inserted] = await this.db.insert(media).values(row).returning();
    return returned(inserted, 'media.insert');
  }

  async update(id: string, patch: MediaPatch): Promise<MediaRow | null> {
    const [row] = await this.db.update(media).set(patch).where(eq(media.id, id)).returning();
    this.#changed(id);
    return row ?? null;
  }

  /**
   * The author's content warning, unless a moderator imposed one (checked in the statement, so a
   * moderator's warning set meanwhile is never overwritten); null when none was written.
   */
  async setAuthorContentWarning(id: string, warning: ContentWarning, updatedAt: Date): Promise<MediaRow | null> {
    const [row] = await this.db
      .update(media)
      .set({ ...warning, updatedAt })
      .where(and(eq(media.id, id), eq(media.contentWarningByModerator, false)))
      .returning();
    this.#changed(id);
    return row ?? null;
  }

  async delete(id: string): Promise<MediaRow | null> {
    this.noteRowLock('media', id);
    const [row] = await this.db.delete(media).where(eq(media.id, id)).returning();
    this.#changed(id);
    return row ?? null;
  }

  /** Hides (or shows again) every media of an owner as their ban starts (or ends). */
  async setOwnerBanned(ownerId: string, banned: boolean): Promise<number> {
    const rows = await this.db
      .update(media)
      .set({ ownerBanned: banned })
      .where(and(eq(media.ownerId, ownerId), sql`${media.ownerBanned} IS DISTINCT FROM ${banned}`))
      .returning({ id: media.id });
    for (const row of rows) this.#changed(row.id);
    return rows.length;
  }

  /** Deletes every media of an owner (posts, avatars, covers); returns the deleted rows. */
  async deleteAllOfOwner(ownerId: string): Promise<MediaRow[]> {
    const rows = await this.db.delete(media).where(eq(media.ownerId, ownerId)).returning();
    for (const row of rows) this.#changed(row.id);
    return rows;
  }

  /** Moves a media's counters by the given amounts (call with the row locked, see lockRow). */
  async adjustCounters(id: string, delta: CounterDelta): Promise<void> {
    await this.db
      .update(media)
      .set({
        likesCount: sql`${media.likesCount} + ${delta.likes ?? 0}`,
        dislikesCount: sql`${media.dislikesCount} + ${delta.dislikes ?? 0}`,
        bookmarksCount: sql`${media.bookmarksCount} + ${delta.bookmarks ?? 0}`,
        commentsCount: sql`${media.commentsCount} + ${delta.comments ?? 0}`,
      })
      .where(eq(media.id, id));
    this.#changed(id);
  }

  /** Likes received by all of a user's media. */
  async likesReceivedBy(ownerId: string): Promise<number> {
    const [row] = await this.db
      .select({ total: sql<number>`coalesce(sum(${media.likesCount}), 0)::int` })
      .from(media)
      .where(eq(media.ownerId, ownerId));
    return row?.total ?? 0;
  }

  /** Ids among `ids` that still have a row (for the orphan-file sweep). */
  async existingIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.select({ id: media.id }).from(media).where(inArray(media.id, ids));
    return new Set(rows.map((row) => row.id));
  }

  // ---- profile images ----

  /** The user's current avatar or cover rows, locked for replacement (normally one, at most a few after races). */
  async profileImagesForUpdate(userId: string, kind: 'avatar' | 'cover'): Promise<MediaRow[]> {
    return this.db
      .select()
      .from(media)
      .where(and(eq(media.ownerId, userId), eq(media.kind, kind)))
      .for('update');
  }

  // ---- lists ----

  readonly #ownPosts = new PreparedPage<ListedMedia>(
    this.source,
    'media.ownPosts',
    ownMediaKeyset,
    (db, where, orderBy) =>
      db
        .select(listedMediaColumns)
        .from(media)
        .where(
          and(eq(media.ownerId, sql.placeholder('ownerId')), eq(media.kind, literal('post')), notPostMember, where),
        )
        .orderBy(...orderBy),
  );

  readonly #publicPosts = new PreparedPage<ListedMedia>(
    this.replicaSource,
    'media.publicPosts',
    userMediaKeyset,
    (db, where, orderBy) =>
      db
        .select(listedMediaColumns)
        .from(media)
        .where(
          and(
            eq(media.ownerId, sql.placeholder('ownerId')),
            eq(media.kind, literal('post')),
            notPostMember,
            eq(media.published, literal(true)),
            lte(media.flag, literal(mediaFlags.none)),
            eq(media.ownerBanned, literal(false)),
            notHiddenByFilters(sql.placeholder('hiddenBy'), mediaFilterText(media)),
            where,
          ),
        )
        .orderBy(...orderBy),
  );

  /** The owner's posts, every state included. */
  listOwnPosts(ownerId: string, page: PageRequest): Promise<ListedMedia[]> {
    return this.#ownPosts.run(page, { ownerId });
  }

  /** A user's posts as the public sees them in lists: published, unflagged, of an owner not banned. */
  listPublicPosts(ownerId: string, page: PageRequest, hiddenBy: string[]): Promise<ListedMedia[]> {
    return this.#publicPosts.run(page, { ownerId, hiddenBy });
  }

  // ---- posts (posts.service.ts) ----

  /** The photos of the posts anchored by these leads (the leads included), each post in its order. */
  async photosOfPosts(leadIds: string[]): Promise<MediaRow[]> {
    if (leadIds.length === 0) return [];
    return this.db
      .select()
      .from(media)
      .where(inArray(media.postId, leadIds))
      .orderBy(asc(media.postId), asc(media.postPosition), asc(media.id));
  }

  /** The members of a post (its photos but the lead). */
  async membersOf(leadId: string): Promise<MediaRow[]> {
    return this.db
      .select()
      .from(media)
      .where(and(eq(media.postId, leadId), ne(media.id, leadId)))
      .orderBy(asc(media.postPosition), asc(media.id));
  }

  /** Sets the same fields on every member of a post (a moderator's flag or publication of the lead). */
  async updateMembers(leadId: string, patch: MediaPatch): Promise<MediaRow[]> {
    const rows = await this.db
      .update(media)
      .set(patch)
      .where(and(eq(media.postId, leadId), ne(media.id, leadId)))
      .returning();
    for (const row of rows) this.#changed(row.id);
    return rows;
  }

  /** The posts a user made (their leads), for the data export, in keyset batches by id. */
  async exportPosts(ownerId: string, after: string | null, limit: number): Promise<MediaRow[]> {
    return this.db
      .select()
      .from(media)
      .where(
        and(eq(media.ownerId, ownerId), eq(media.postId, media.id), after === null ? undefined : gt(media.id, after)),
      )
      .orderBy(media.id)
      .limit(limit);
  }

  /** Every post of the owner, whatever its state (the operators' view). */
  async countPosts(ownerId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(media)
      .where(and(eq(media.ownerId, ownerId), eq(media.kind, 'post')));
    return row?.count ?? 0;
  }

  async countPublishedPosts(ownerId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(media)
      .where(and(eq(media.ownerId, ownerId), eq(media.kind, 'post'), eq(media.published, true)));
    return row?.count ?? 0;
  }

  /** Bytes of the originals a user keeps (every kind, every state): what the storage quota counts. */
  async storedBytesOf(ownerId: string): Promise<number> {
    const [row] = await this.db
      .select({ bytes: sql<string | number>`coalesce(sum(${media.byteSize}), 0)::bigint` })
      .from(media)
      .where(eq(media.ownerId, ownerId));
    return Number(row?.bytes ?? 0);
  }

  // ---- the description queue ----

  /** Items in the given states (default: pending and claimed), newest first. */
  async listQueue(statuses: DescribeStatus[], page: PageRequest): Promise<MediaRow[]> {
    const { where, orderBy } = keyset(describeQueueKeyset, page);
    return this.db
      .select()
      .from(media)
      .where(and(eq(media.kind, 'post'), inArray(media.describeStatus, statuses), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async countQueue(statuses: DescribeStatus[]): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(media)
      .where(and(eq(media.kind, 'post'), inArray(media.describeStatus, statuses)));
    return row?.count ?? 0;
  }

  /** Claims a pending item, or a claimed one whose lease has ended; null when neither (atomic). */
  async claim(id: string, now: Date, until: Date): Promise<MediaRow | null> {
    const [row] = await this.db
      .update(media)
      .set({
        describeStatus: 'claimed',
        claimedUntil: until,
        describeAttempts: sql`${media.describeAttempts} + 1`,
        updatedAt: now,
      })
      .where(
        and(
          eq(media.id, id),
          eq(media.kind, 'post'),
          or(
            eq(media.describeStatus, 'pending'),
            and(eq(media.describeStatus, 'claimed'), lte(media.claimedUntil, now)),
          ),
        ),
      )
      .returning();
    return row ?? null;
  }

  /** Ends a live claim with an outcome; null when the item is not under a live claim (atomic). */
  async finishClaim(id: string, now: Date, patch: MediaPatch): Promise<MediaRow | null> {
    const [row] = await this.db
      .update(media)
      .set({ ...patch, claimedUntil: null, updatedAt: now })
      .where(
        and(eq(media.id, id), eq(media.describeStatus, 'claimed'), sql`${media.claimedUntil} > ${now.toISOString()}`),
      )
      .returning();
    return row ?? null;
  }

  /** Expired leases go back to pending, or to failed after too many attempts; returns both counts. */
  async releaseExpiredClaims(now: Date, maxAttempts: number): Promise<{ released: number; abandoned: number }> {
    const expired = and(eq(media.describeStatus, 'claimed'), lte(media.claimedUntil, now));
    const abandoned = await this.db
      .update(media)
      .set({
        describeStatus: 'failed',
        claimedUntil: null,
        failReason: `lease expired ${maxAttempts} times`,
        updatedAt: now,
      })
      .where(and(expired, sql`${media.describeAttempts} >= ${maxAttempts}`))
      .returning({ id: media.id });
    const released = await this.db
      .update(media)
      .set({ describeStatus: 'pending', claimedUntil: null, updatedAt: now })
      .where(expired)
      .returning({ id: media.id });
    return { released: released.length, abandoned: abandoned.length };
  }

  /** The data export's media of an owner (posts, avatar, cover), in keyset batches by id. */
  async exportRows(ownerId: string, after: string | null, limit: number): Promise<MediaRow[]> {
    return this.db
      .select()
      .from(media)
      .where(and(eq(media.ownerId, ownerId), after === null ? undefined : gt(media.id, after)))
      .orderBy(media.id)
      .limit(limit);
  }
}

export type { MediaKind };
