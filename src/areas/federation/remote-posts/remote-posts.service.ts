/**
 * Remote posts (docs/api.md, Federation): the public notes of remote actors that local users follow,
 * kept as references (text, and their attachments' URLs on the author's server), listed to their
 * followers, liked and replied to by local users (the Like, Undo(Like) and Create(Note) sent to the
 * author), and pruned by age. The inbox handlers (inbound/remote-post-handlers.ts) parse the notes;
 * the activities sent are built by remote-post-activities.ts, which only federation-setup.ts loads.
 */
import type { Clock } from '../../../platform/clock.ts';
import type { PageRequest } from '../../../platform/db/page-request.ts';
import type { Transactions } from '../../../platform/db/transactions.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { newId } from '../../../platform/ids/ids.ts';
import { visibleText } from '../../../platform/text/visible-text.ts';
import type { FilterResult, FiltersService } from '../../filters/public.ts';
import type { RemoteActorsService } from '../remote-actors.service.ts';
import type { RemoteActorRow } from '../tables.ts';
import {
  type ListedRemotePost,
  type RemotePostFields,
  type RemotePostsRepository,
  remotePostFilterTextOf,
} from './remote-posts.repository.ts';
import type { RemotePostReplyRow, RemotePostRow } from './tables.ts';

/** How long a remote post is kept after it was published (the job remote-posts prunes older ones). */
export const remotePostMaxAgeDays = 30;
const maxAgeMs = remotePostMaxAgeDays * 24 * 60 * 60 * 1000;

/** At most this many attachments of a note are kept (the rest are dropped). */
export const remotePostMaxAttachments = 10;

/** The longest reply a local user sends (Mastodon's own limit is 500). */
export const remoteReplyMaxLength = 500;

/** A reply's URI is `{PUBLIC_URL}` and this path (not served: the reply lives on in the author's thread). */
export const replyPath = (replyId: string) => `/ap/replies/${replyId}`;

/** A note as the inbox handler read it: plain text, http(s) URLs, at most remotePostMaxAttachments attachments. */
export interface RemoteNote extends Omit<RemotePostFields, 'publishedAt' | 'editedAt'> {
  uri: string;
  /** The note's `published`, or null when it has none. */
  publishedAt: Date | null;
  editedAt: Date | null;
}

/** What is sent to a remote post's author (remote-post-activities.ts, on Fedify). */
export interface RemotePostActivities {
  like(userId: string, author: RemoteActorRow, postUri: string, likeUri: string): Promise<void>;
  undoLike(userId: string, author: RemoteActorRow, postUri: string, likeUri: string): Promise<void>;
  reply(userId: string, author: RemoteActorRow, postUri: string, reply: RemotePostReplyRow): Promise<void>;
}

export interface RemotePostsServiceDeps {
  transactions: Transactions;
  repository: RemotePostsRepository;
  remoteActors: RemoteActorsService;
  filters: FiltersService;
  clock: Clock;
  publicUrl: string;
  /** The senders of activities; null while FEDERATION is off (likes and replies are then refused). */
  activities: (() => Promise<RemotePostActivities>) | null;
}

/** A page of the following list, with the viewer's replies to its posts. */
export interface RemotePostsPage {
  /** With `filtered` when the viewer has a `warn` filter in force: the ones its text matched (context `feeds`). */
  rows: Array<ListedRemotePost & { filtered?: FilterResult[] }>;
  replies: Map<string, RemotePostReplyRow[]>;
}

export class RemotePostsService {
  readonly #deps: RemotePostsServiceDeps;

  constructor(deps: RemotePostsServiceDeps) {
    this.#deps = deps;
  }

  /**
   * A public note of the author (a remote actor's shadow) arrived in a Create: kept when a local user
   * follows the author and it is not older than the age kept. False when ignored (or already kept).
   */
  async receive(authorId: string, note: RemoteNote): Promise<boolean> {
    const now = this.#deps.clock.now();
    const fields = this.#fields(note, now);
    if (fields.publishedAt.getTime() < now.getTime() - maxAgeMs) return false;
    return this.#deps.transactions.run(async () => {
      if (!(await this.#deps.repository.followedLocally(authorId))) return false;
      return this.#deps.repository.insert({ id: newId(), uri: note.uri, authorId, receivedAt: now, ...fields });
    });
  }

  /** An Update of a kept note by its author; false when no such post is kept. */
  update(authorId: string, note: RemoteNote): Promise<boolean> {
    const fields = this.#fields(note, this.#deps.clock.now());
    return this.#deps.repository.update(note.uri, authorId, fields);
  }

  /** A Delete of a note (or its Tombstone) by its author; false when no such post is kept. */
  remove(authorId: string, uri: string): Promise<boolean> {
    return this.#deps.repository.delete(uri, authorId);
  }

  /** The following list: the remote posts of the accounts the viewer follows, newest first, as keyword filters leave it (context `feeds`). */
  async following(viewerId: string, page: PageRequest): Promise<RemotePostsPage> {
    const { filters } = this.#deps;
    const hiddenBy = await filters.hiddenFor(viewerId, 'feeds');
    const listed = await this.#deps.repository.following(viewerId, page, this.#deps.clock.now(), hiddenBy);
    const rows = await filters.warn(viewerId, 'feeds', listed, remotePostFilterTextOf);
    const replies = new Map<string, RemotePostReplyRow[]>();
    for (const reply of await this.#deps.repository.repliesOf(
      viewerId,
      rows.map((row) => row.id),
    )) {
      replies.set(reply.postId, [...(replies.get(reply.postId) ?? []), reply]);
    }
    return { rows, replies };
  }

  /** Likes the post and sends Like to its author; nothing more when already liked. */
  async like(userId: string, postId: string): Promise<void> {
    const activities = await this.#activities();
    await this.#deps.transactions.run(async () => {
      const { post, author } = await this.#target(userId, postId);
      const likeUri = `${this.#actorUri(userId)}#likes/${newId()}`;
      if (!(await this.#deps.repository.like(post.id, userId, likeUri, this.#deps.clock.now()))) return;
      await activities.like(userId, author, post.uri, likeUri);
    });
  }

  /** Takes the like back and sends Undo(Like); nothing when there was none. */
  async unlike(userId: string, postId: string): Promise<void> {
    const activities = await this.#activities();
    await this.#deps.transactions.run(async () => {
      const { post, author } = await this.#target(userId, postId);
      const likeUri = await this.#deps.repository.unlike(post.id, userId);
      if (likeUri !== null) await activities.undoLike(userId, author, post.uri, likeUri);
    });
  }

  /** Keeps the reply and sends it to the post's author as a Create(Note) in reply to the post. */
  async reply(userId: string, postId: string, text: string): Promise<RemotePostReplyRow> {
    const visible = visibleText(text, { multiline: true });
    if (visible === null || [...visible].length > remoteReplyMaxLength)
      throw new AppError('validationFailed', {
        source: { pointer: '/text' },
        detail: `1 to ${remoteReplyMaxLength} visible characters`,
      });
    const activities = await this.#activities();
    return this.#deps.transactions.run(async () => {
      const { post, author } = await this.#target(userId, postId);
      const reply = { id: newId(), postId: post.id, userId, text: visible, createdAt: this.#deps.clock.now() };
      await this.#deps.repository.insertReply(reply);
      await activities.reply(userId, author, post.uri, reply);
      return reply;
    });
  }

  /** The job remote-posts: deletes the posts published more than remotePostMaxAgeDays ago. */
  async prune(): Promise<{ pruned: number }> {
    const before = new Date(this.#deps.clock.now().getTime() - maxAgeMs);
    let pruned = 0;
    for (;;) {
      const deleted = await this.#deps.repository.pruneBatch(before);
      pruned += deleted;
      if (deleted === 0) return { pruned };
    }
  }

  /** What is kept of a note: its times bounded by its arrival (a date in the future would pin it on top). */
  #fields(note: RemoteNote, now: Date): RemotePostFields {
    const bounded = (at: Date | null) => (at === null || at > now ? now : at);
    const { uri: _uri, ...fields } = note;
    return { ...fields, publishedAt: bounded(note.publishedAt), editedAt: note.editedAt && bounded(note.editedAt) };
  }

  async #activities(): Promise<RemotePostActivities> {
    if (this.#deps.activities === null) throw new AppError('federationOff');
    return this.#deps.activities();
  }

  /** The post the user acts on, and its author's actor; 404 when gone, its author hidden or blocked either way. */
  async #target(userId: string, postId: string): Promise<{ post: RemotePostRow; author: RemoteActorRow }> {
    const post = await this.#deps.repository.findFor(userId, postId);
    const author = post === null ? null : await this.#deps.remoteActors.ofUser(post.authorId);
    if (post === null || author === null) throw new AppError('notFound', { source: { parameter: 'postId' } });
    return { post, author };
  }

  #actorUri(userId: string): string {
    return new URL(`/ap/users/${userId}`, this.#deps.publicUrl).href;
  }
}
