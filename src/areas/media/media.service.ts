/** The rules of media reading and editing: who sees what, lists, descriptions. */

import type { Purgeable } from '../../platform/cache/cache-registry.ts';
import { TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import { type Page, pageOf } from '../../platform/db/page.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { returned } from '../../platform/db/returned.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';
import { extractHashtags, normaliseHashtags } from '../../platform/text/hashtags.ts';
import type { UsersService } from '../accounts/public.ts';
import type { UserRow } from '../accounts/read-model.ts';
import type { FilterResult, FiltersService } from '../filters/public.ts';
import { mediaFilterTextOf } from '../filters/read-model.ts';
import { type ContentWarningRequest, checkedContentWarning } from './content-warnings.ts';
import { type CounterDelta, type MediaRepository, ownMediaKeyset, userMediaKeyset } from './media.repository.ts';
import { isPubliclyVisible } from './media-flags.ts';
import type { ListedMedia } from './read-model.ts';
import type { MediaRow } from './tables.ts';

/**
 * Rows the file route may serve, kept briefly so a popular image costs no database round trip.
 * Writes through this process's repository drop their row at once; a change made by another
 * instance shows here within this time.
 */
export const servableCacheTtlMs = 10_000;

export interface MediaServiceDeps {
  repository: MediaRepository;
  users: UsersService;
  filters: FiltersService;
  clock: Clock;
  transactions: Transactions;
  events: EventBus;
}

export class MediaService {
  readonly #deps: MediaServiceDeps;

  /** The keyset of listPublicPosts, for the routes that page it (the API's and the web profile's). */
  readonly publicPostsKeyset = userMediaKeyset;
  readonly #servable: TtlCache<string, MediaRow>;

  constructor(deps: MediaServiceDeps) {
    this.#deps = deps;
    this.#servable = new TtlCache(deps.clock, servableCacheTtlMs, 10_000);
    deps.repository.onRowChanged((id) => this.#servable.delete(id));
  }

  /** The servable rows kept in memory, for the cache registry (POST /admin/cache/purge). */
  get cache(): Purgeable {
    return this.#servable;
  }

  /**
   * The shared read API for other areas (reactions, bookmarks, comments): a media post by UUID or
   * 32-hex id, or null when it does not exist or the viewer may not see it. Visible means published
   * and not hidden by a moderation flag, or owned by the viewer. Avatars and covers are not posts and
   * are never returned here. Between a viewer and an owner where either blocks the other, the media
   * does not exist (accounts' rule): so nobody likes, bookmarks, comments or reports across a block.
   */
  async findVisibleMedia(mediaIdOrHex: string, viewerId: string | null): Promise<MediaRow | null> {
    const id = parseUuidOrHex(mediaIdOrHex);
    if (id === null) return null;
    const row = await this.#deps.repository.findPostById(id);
    if (row === null) return null;
    if (row.ownerId === viewerId) return row;
    if (!isPubliclyVisible(row) || (await this.#deps.users.blockedEitherWay(viewerId, row.ownerId))) return null;
    return row;
  }

  /**
   * Locks a media row in the transaction in progress, before its counters change (reactions,
   * bookmarks): writers on one media then take turns, so counters follow the rows exactly.
   * False when there is no such media. A write that also changes users takes lockForWrite instead.
   */
  lockForCounters(id: string): Promise<boolean> {
    return this.#deps.repository.lockRow(id);
  }

  /**
   * The locks of a write on a media, in the one lock order (docs/development.md): the users the write
   * and its in-transaction events change (the actor's badges, the owner's experience), ascending id,
   * then the media. The users' rows by id; null when the media is gone.
   */
  async lockForWrite(id: string, userIds: readonly string[]): Promise<Map<string, UserRow | null> | null> {
    const users = await this.#deps.users.lockInOrder(userIds);
    return (await this.#deps.repository.lockRow(id)) ? users : null;
  }

  /** Moves the counters of a media locked with lockForCounters, by what the caller's change really did. */
  async adjustCounters(id: string, delta: CounterDelta): Promise<void> {
    await this.#deps.repository.adjustCounters(id, delta);
    if ((delta.likes ?? 0) !== 0) await this.#deps.events.publish('media.likesChanged', { mediaId: id });
  }

  /** The media's counters now (in the transaction in progress, if any); null when it is gone. */
  async counters(id: string): Promise<{ likesCount: number; dislikesCount: number; bookmarksCount: number } | null> {
    const row = await this.#deps.repository.findById(id);
    return row && { likesCount: row.likesCount, dislikesCount: row.dislikesCount, bookmarksCount: row.bookmarksCount };
  }

  /** Likes received by all of a user's media (crowd-pleaser badge). */
  likesReceivedBy(ownerId: string): Promise<number> {
    return this.#deps.repository.likesReceivedBy(ownerId);
  }

  /** How many posts the owner has, whatever their state (the operators' view of a user). */
  countPostsOf(ownerId: string): Promise<number> {
    return this.#deps.repository.countPosts(ownerId);
  }

  /** Any media (post, avatar or cover) the public may see, for serving its files. */
  async findServableMedia(id: string): Promise<MediaRow | null> {
    const cached = this.#servable.get(id);
    if (cached !== undefined) return cached;
    const row = await this.#deps.repository.findById(id);
    if (row === null || !isPubliclyVisible(row)) return null;
    this.#servable.set(id, row);
    return row;
  }

  /** The owner's post, whatever its state; 404 for a missing media or one of someone else. */
  async requireOwnPost(ownerId: string, id: string): Promise<MediaRow> {
    const row = await this.#deps.repository.findPostById(id);
    if (row === null || row.ownerId !== ownerId) throw new AppError('notFound', { source: { parameter: 'mediaId' } });
    return row;
  }

  async listOwnPosts(ownerId: string, page: PageRequest): Promise<Page<ListedMedia>> {
    return pageOf(await this.#deps.repository.listOwnPosts(ownerId, page), page, ownMediaKeyset);
  }

  /**
   * A user's public posts; 404 when the viewer may not see the user (hidden, or a block between them).
   * What the viewer's keyword filters hide is left out; what they warn about carries `filtered`.
   */
  async listPublicPosts(
    userId: string,
    page: PageRequest,
    viewerId: string | null = null,
  ): Promise<Page<ListedMedia & { filtered?: FilterResult[] }>> {
    if ((await this.#deps.users.findVisibleTo(userId, viewerId)) === null)
      throw new AppError('notFound', { source: { parameter: 'userId' } });
    const { filters } = this.#deps;
    const hiddenBy = await filters.hiddenFor(viewerId, 'feeds');
    const listed = pageOf(await this.#deps.repository.listPublicPosts(userId, page, hiddenBy), page, userMediaKeyset);
    return { ...listed, items: await filters.warn(viewerId, 'feeds', listed.items, mediaFilterTextOf) };
  }

  /**
   * The owner writes the description: hashtags are the ones given, or else the #tags of the text.
   * An owner's description takes the media out of the description queue.
   */
  async setDescription(ownerId: string, id: string, description: string, hashtags?: string[]): Promise<MediaRow> {
    const row = await this.requireOwnPost(ownerId, id);
    const leavesQueue = row.describeStatus === 'pending' || row.describeStatus === 'claimed';
    return this.#changeDescription(row.id, {
      description,
      descriptionLocale: null,
      hashtags: hashtags === undefined ? extractHashtags(description) : normaliseHashtags(hashtags),
      ...(leavesQueue ? { describeStatus: 'skipped' as const, claimedUntil: null } : {}),
    });
  }

  /** Clears the description and its hashtags; the media does not re-enter the queue by itself. */
  async clearDescription(ownerId: string, id: string): Promise<void> {
    const row = await this.requireOwnPost(ownerId, id);
    await this.#changeDescription(row.id, { description: null, descriptionLocale: null, hashtags: [] });
  }

  /**
   * The author marks their post sensitive, with or without a warning text, or lifts it
   * (content-warnings.ts); 403 `contentWarningByModerator` once a moderator imposed one.
   */
  async setContentWarning(ownerId: string, id: string, request: ContentWarningRequest): Promise<MediaRow> {
    const row = await this.requireOwnPost(ownerId, id);
    const warning = checkedContentWarning(request);
    return this.#deps.transactions.run(async () => {
      const updated = await this.#deps.repository.setAuthorContentWarning(row.id, warning, this.#deps.clock.now());
      if (updated === null) {
        if ((await this.#deps.repository.findById(row.id)) === null) {
          throw new AppError('notFound', { source: { parameter: 'mediaId' } });
        }
        throw new AppError('contentWarningByModerator', {
          detail: 'a moderator set the content warning of this media; only a moderator may change it',
        });
      }
      await this.#deps.events.publish('media.changed', { media: updated });
      return updated;
    });
  }

  /** Writes a description change and publishes `media.changed` in one transaction. */
  #changeDescription(id: string, patch: Partial<MediaRow>): Promise<MediaRow> {
    return this.#deps.transactions.run(async () => {
      const updated = returned(
        await this.#deps.repository.update(id, { ...patch, updatedAt: this.#deps.clock.now() }),
        'media.update',
      );
      await this.#deps.events.publish('media.changed', { media: updated });
      return updated;
    });
  }
}
