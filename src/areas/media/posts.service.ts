/**
 * Multi-photo posts (docs/api.md, Posts). A post is anchored by its lead media, whose id is the
 * post's id: reactions, comments, bookmarks, reports and notifications keyed by a media id apply to
 * the post unchanged. Its other photos are members (postId = the lead's id), listed only within it.
 * The caption is the lead's description (and hashtags), each photo's own text its altText.
 */
import type { Clock } from '../../platform/clock.ts';
import type { Page } from '../../platform/db/page.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { returned } from '../../platform/db/returned.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';
import { extractHashtags } from '../../platform/text/hashtags.ts';
import type { UsersService } from '../accounts/public.ts';
import type { FilterResult } from '../filters/public.ts';
import type { MediaPatch, MediaRepository } from './media.repository.ts';
import type { MediaService } from './media.service.ts';
import type { MediaDeletion } from './media-deletion.ts';
import { isPubliclyVisible } from './media-flags.ts';
import {
  mapPhotoOf,
  maxPostPhotos,
  type PostChange,
  type PostPhotoInput,
  plannedPost,
  refuseRepeats,
  tooMany,
} from './post-plan.ts';
import type { ListedMedia } from './read-model.ts';
import type { MediaRow } from './tables.ts';

/** A post: its lead (the anchor, holding the caption and counters) and its photos in order. */
export interface Post {
  lead: ListedMedia;
  photos: MediaRow[];
}

export interface PostsServiceDeps {
  repository: MediaRepository;
  media: MediaService;
  deletion: MediaDeletion;
  users: UsersService;
  clock: Clock;
  transactions: Transactions;
  events: EventBus;
}

const notAPost = (parameter = 'postId') => new AppError('notFound', { source: { parameter } });

export class PostsService {
  readonly #deps: PostsServiceDeps;

  constructor(deps: PostsServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Makes a post of 1 to 10 of the owner's photos, in the order given; the first is the lead. 404 for a
   * photo that is not theirs, 409 `photoInPost` for one already in a post; nothing changes then.
   */
  async create(ownerId: string, photos: PostPhotoInput[], caption: string | null | undefined): Promise<Post> {
    const ids = photos.map((photo, index) => photoId(photo.mediaId, `/photos/${index}/mediaId`));
    refuseRepeats(ids, (index) => `/photos/${index}/mediaId`);
    const leadId = ids[0];
    if (leadId === undefined || ids.length > maxPostPhotos) throw tooMany('/photos');
    return this.#deps.transactions.run(async () => {
      const rows = await this.#lockOwnPhotos(ownerId, ids, (index) => `/photos/${index}/mediaId`);
      for (const [index, row] of rows.entries()) refuseInPost(row, `/photos/${index}/mediaId`);
      const texts = new Map(photos.map((photo, index) => [ids[index] as string, photo.description]));
      await this.#apply(leadId, ids, [], texts, captionPatch(returned(rows[0], 'lead'), caption), mapPhotoOf(rows));
      return this.#read(leadId);
    });
  }

  /** A post as the viewer may see it (a member's id gives its post); 404 when they may not. */
  async find(idOrHex: string, viewerId: string | null): Promise<Post> {
    const found = await this.#deps.media.findVisibleMedia(idOrHex, viewerId);
    const leadId = found === null ? null : found.postId === null ? found.id : found.postId;
    const lead = leadId === null ? null : await this.#deps.media.findVisibleMedia(leadId, viewerId);
    if (lead === null) throw notAPost();
    const [post] = await this.#withPhotos([lead]);
    return visiblePart(returned(post, 'post'), viewerId);
  }

  /**
   * Changes a post: caption, photos removed (they become photos of their own again), added (at the
   * end), their order (every photo once), each photo's text. All checked before anything is written.
   */
  async update(ownerId: string, postIdOrHex: string, change: PostChange): Promise<Post> {
    const leadId = parseUuidOrHex(postIdOrHex);
    if (leadId === null) throw notAPost();
    const added = (change.add ?? []).map((photo, index) => photoId(photo.mediaId, `/add/${index}/mediaId`));
    return this.#deps.transactions.run(async () => {
      await this.#deps.users.lock(ownerId);
      const lead = await this.#ownLead(ownerId, leadId);
      const current = lead.postId === null ? [lead] : await this.#deps.repository.photosOfPosts([lead.id]);
      const addedRows = await this.#lockOwnPhotos(ownerId, added, (index) => `/add/${index}/mediaId`);
      const plan = plannedPost(
        lead.id,
        current.map((row) => row.id),
        change,
        added,
      );
      for (const [index, row] of addedRows.entries()) refuseInPost(row, `/add/${index}/mediaId`);
      const byId = new Map([...current, ...addedRows].map((row) => [row.id, row]));
      const ordered = plan.order.map((id) => returned(byId.get(id), 'post photo'));
      await this.#apply(
        lead.id,
        plan.order,
        plan.removed,
        plan.texts,
        captionPatch(lead, change.caption),
        mapPhotoOf(ordered),
      );
      return this.#read(lead.id);
    });
  }

  /** Deletes a post and every photo of it (rows, then files). */
  async delete(ownerId: string, postIdOrHex: string): Promise<void> {
    const leadId = parseUuidOrHex(postIdOrHex);
    if (leadId === null) throw notAPost();
    await this.#deps.deletion.one((await this.#ownLead(ownerId, leadId)).id);
  }

  /** The owner's post by its lead's id; 404 for anything else (someone else's, a member, not a post). */
  async #ownLead(ownerId: string, leadId: string): Promise<MediaRow> {
    const lead = await this.#deps.repository.findPostById(leadId);
    if (lead === null || lead.ownerId !== ownerId || (lead.postId !== null && lead.postId !== lead.id))
      throw notAPost();
    return lead;
  }

  /** A user's posts as the public sees them (their media list's rule), newest first, with their photos. */
  async listOf(
    userId: string,
    page: PageRequest,
    viewerId: string | null,
  ): Promise<Page<Post & { filtered?: FilterResult[] }>> {
    const listed = await this.#deps.media.listPublicPosts(userId, page, viewerId);
    const posts = await this.#withPhotos(listed.items);
    return {
      ...listed,
      items: posts.map((post, index) => ({
        ...visiblePart(post, viewerId),
        filtered: listed.items[index]?.filtered ?? [],
      })),
    };
  }

  /** These listed leads' posts, each with the photos anyone may see (feeds read a hashtag's posts this way). */
  async publicPostsOf(leads: ListedMedia[]): Promise<Post[]> {
    return (await this.#withPhotos(leads)).map((post) => visiblePart(post, null));
  }

  /** Locks the owner, then the photos (ascending id: the lock order), and reads them; 404 for one not theirs. */
  async #lockOwnPhotos(ownerId: string, ids: string[], pointer: (index: number) => string): Promise<MediaRow[]> {
    await this.#deps.users.lock(ownerId);
    for (const id of [...ids].sort()) await this.#deps.repository.lockRow(id);
    const rows: MediaRow[] = [];
    for (const [index, id] of ids.entries()) {
      const row = await this.#deps.repository.findPostById(id);
      if (row === null || row.ownerId !== ownerId)
        throw new AppError('notFound', { source: { pointer: pointer(index) }, detail: 'not one of your photos' });
      rows.push(row);
    }
    return rows;
  }

  /** Writes a post's photos in order, the removed ones out of it, the texts and the caption. */
  async #apply(
    leadId: string,
    order: string[],
    removed: string[],
    texts: Map<string, string | null | undefined>,
    caption: MediaPatch,
    mapPhoto: string | null,
  ): Promise<void> {
    const now = this.#deps.clock.now();
    for (const id of removed) {
      await this.#write(id, { postId: null, postPosition: 0, photosCount: 1, mapPhoto: false, updatedAt: now });
    }
    for (const [position, id] of order.entries()) {
      const text = texts.get(id);
      const patch: MediaPatch = {
        postId: leadId,
        postPosition: position,
        mapPhoto: id === mapPhoto,
        ...(text === undefined ? {} : { altText: text }),
        ...(id === leadId ? { photosCount: order.length, ...caption } : {}),
        updatedAt: now,
      };
      await this.#write(id, patch);
    }
  }

  /** One row's change, told to the lists (search, hashtags, the map follow media.changed). */
  async #write(id: string, patch: MediaPatch): Promise<void> {
    const row = returned(await this.#deps.repository.update(id, patch), 'media.update');
    await this.#deps.events.publish('media.changed', { media: row });
  }

  async #read(leadId: string): Promise<Post> {
    const lead = returned(await this.#deps.repository.findById(leadId), 'post lead');
    const [post] = await this.#withPhotos([lead]);
    return returned(post, 'post');
  }

  /** The posts of these leads with their photos (a photo never put in a post is a post of one). */
  async #withPhotos<Lead extends ListedMedia>(leads: Lead[]): Promise<Array<{ lead: Lead; photos: MediaRow[] }>> {
    const made = leads.filter((lead) => lead.postId === lead.id).map((lead) => lead.id);
    const photos = await this.#deps.repository.photosOfPosts(made);
    const singles = await Promise.all(
      leads.filter((lead) => lead.postId === null).map((lead) => this.#deps.repository.findById(lead.id)),
    );
    return leads.map((lead) => ({
      lead,
      photos:
        lead.postId === null
          ? singles.filter((row): row is MediaRow => row?.id === lead.id)
          : photos.filter((photo) => photo.postId === lead.id),
    }));
  }
}

/** What others see of a post: the photos they may see (a moderator may have hidden one of them). */
function visiblePart<P extends { lead: ListedMedia; photos: MediaRow[] }>(post: P, viewerId: string | null): P {
  if (post.lead.ownerId === viewerId) return post;
  return { ...post, photos: post.photos.filter(isPubliclyVisible) };
}

/** The caption is the lead's description: written as PUT …/description writes it, cleared as DELETE does. */
function captionPatch(lead: MediaRow, caption: string | null | undefined): MediaPatch {
  if (caption === undefined) return {};
  if (caption === null) return { description: null, descriptionLocale: null, hashtags: [] };
  const leavesQueue = lead.describeStatus === 'pending' || lead.describeStatus === 'claimed';
  return {
    description: caption,
    descriptionLocale: null,
    hashtags: extractHashtags(caption),
    ...(leavesQueue ? { describeStatus: 'skipped' as const, claimedUntil: null } : {}),
  };
}

function photoId(value: string, pointer: string): string {
  const id = parseUuidOrHex(value);
  if (id === null) throw new AppError('invalidId', { source: { pointer } });
  return id;
}

function refuseInPost(row: MediaRow, pointer: string): void {
  if (row.postId !== null)
    throw new AppError('photoInPost', { source: { pointer }, detail: 'this photo is in a post already' });
}
