/** The rules of reactions: who may react to what, and whose reactions anyone may list. */
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/http/ids.ts';
import type { PageRequest } from '../../platform/http/pagination.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { mediaListedFor, mediaVisibleTo } from '../media/media-visibility-sql.ts';
import type { ReactionChange, ReactionsRepository, ReactionWithCounts } from './reactions.repository.ts';
import type { ReactionType } from './tables.ts';

/**
 * Called inside the transaction that records a like, for the media owner's rewards: once per liker
 * and media (unliking and liking again does not call it twice), never for a like of one's own media.
 */
export type LikeReceivedListener = (
  like: { ownerId: string; likerId: string; mediaId: string },
  db: Db,
) => Promise<void>;

/** Experience the owner of a media earns for the first like of each user on it. */
export const experienceForLikeReceived = 2;

const mediaNotFound = () =>
  new AppError('notFound', { source: { parameter: 'mediaId' }, detail: 'no such media, or not visible to you' });

export class ReactionsService {
  private readonly db: Db;
  private readonly repository: ReactionsRepository;
  private readonly media: MediaService;
  private readonly accounts: AccountsService;
  private readonly clock: Clock;

  constructor(db: Db, repository: ReactionsRepository, media: MediaService, accounts: AccountsService, clock: Clock) {
    this.db = db;
    this.repository = repository;
    this.media = media;
    this.accounts = accounts;
    this.clock = clock;
  }

  readonly #likeListeners: LikeReceivedListener[] = [];

  onLikeReceived(listener: LikeReceivedListener): void {
    this.#likeListeners.push(listener);
  }

  /** Likes or dislikes a media the viewer can see; the same type again changes nothing. */
  async react(
    viewerId: string,
    mediaId: string,
    type: ReactionType,
  ): Promise<ReactionWithCounts & { change: ReactionChange }> {
    const target = await this.media.findVisibleMedia(mediaId, viewerId);
    if (target === null) throw mediaNotFound();
    return await this.db.transaction(async (tx) => {
      if (!(await this.media.lockForCounters(target.id, tx))) throw mediaNotFound();
      const at = this.clock.now();
      const change = await this.repository.setReaction(
        { id: newId(), userId: viewerId, mediaId: target.id, type, at },
        tx,
      );
      const rewardable = change !== 'unchanged' && type === 'like' && target.ownerId !== viewerId;
      if (rewardable && (await this.repository.claimLikeReward(viewerId, target.id, at, tx))) {
        for (const listener of this.#likeListeners)
          await listener({ ownerId: target.ownerId, likerId: viewerId, mediaId: target.id }, tx);
      }
      const current = await this.repository.findWithCounts(viewerId, target.id, tx);
      if (current === null) throw mediaNotFound();
      return { ...current, change };
    });
  }

  /** Removes the viewer's reaction; 404 when they had none on this media. */
  async unreact(viewerId: string, mediaId: string): Promise<void> {
    const removed = await this.db.transaction(async (tx) =>
      (await this.media.lockForCounters(mediaId, tx)) ? this.repository.removeReaction(viewerId, mediaId, tx) : null,
    );
    if (removed === null) {
      throw new AppError('notFound', {
        source: { parameter: 'mediaId' },
        detail: 'you have no reaction on this media',
      });
    }
  }

  /** The viewer's own likes or dislikes, on media they can still open. */
  listOwn(viewerId: string, type: ReactionType, page: PageRequest) {
    return this.repository.listMediaOfUser(viewerId, type, mediaVisibleTo(viewerId), page);
  }

  /**
   * A user's likes or dislikes as anyone sees them: 403 when that user keeps them private (unless
   * they are the viewer), publicly listed media only.
   */
  async listOfUser(userId: string, type: ReactionType, viewerId: string | null, page: PageRequest) {
    const user = await this.accounts.getUser(userId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'notFound') {
        throw new AppError('notFound', { source: { parameter: 'userId' }, detail: 'no such user' });
      }
      throw error;
    });
    if (user.id !== viewerId && user.settings.showReactionsPublicly === false) {
      throw new AppError('reactionsNotPublic', { source: { parameter: 'userId' } });
    }
    return this.repository.listMediaOfUser(user.id, type, mediaListedFor(viewerId), page);
  }

  /** Who liked or disliked a media the viewer can see. */
  async listReactors(mediaId: string, type: ReactionType, viewerId: string | null, page: PageRequest) {
    const target = await this.media.findVisibleMedia(mediaId, viewerId);
    if (target === null) throw mediaNotFound();
    return this.repository.listUsersOfMedia(target.id, type, viewerId, page);
  }
}
