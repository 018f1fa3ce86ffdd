/** The rules of reactions: who may react to what, and whose reactions anyone may list. */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { UsersService } from '../accounts/public.ts';
import { showsReactionsPublicly } from '../accounts/read-model.ts';
import type { FilterResult, FiltersService } from '../filters/public.ts';
import { mediaFilterTextOf } from '../filters/read-model.ts';
import type { MediaService } from '../media/public.ts';
import './events.ts';
import type { ReactedMedia, ReactionChange, ReactionsRepository, ReactionWithCounts } from './reactions.repository.ts';
import type { ReactionType } from './tables.ts';

const mediaNotFound = () =>
  new AppError('notFound', { source: { parameter: 'mediaId' }, detail: 'no such media, or not visible to you' });

/** How a reaction change moves a media's counters. */
function counterMove(type: ReactionType, change: ReactionChange): { likes: number; dislikes: number } {
  const sign = type === 'like' ? 1 : -1;
  if (change === 'unchanged') return { likes: 0, dislikes: 0 };
  if (change === 'created') return type === 'like' ? { likes: 1, dislikes: 0 } : { likes: 0, dislikes: 1 };
  return { likes: sign, dislikes: -sign };
}

export interface ReactionsServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: ReactionsRepository;
  media: MediaService;
  users: UsersService;
  filters: FiltersService;
  clock: Clock;
}

export class ReactionsService {
  readonly #deps: ReactionsServiceDeps;

  constructor(deps: ReactionsServiceDeps) {
    this.#deps = deps;
  }

  /** Likes or dislikes a media the viewer can see; the same type again changes nothing. */
  async react(
    viewerId: string,
    mediaId: string,
    type: ReactionType,
  ): Promise<ReactionWithCounts & { change: ReactionChange }> {
    const target = await this.#deps.media.findVisibleMedia(mediaId, viewerId);
    if (target === null) throw mediaNotFound();
    return await this.#deps.transactions.run(async () => {
      // A like changes the owner's experience and badges (reaction.liked), so it locks the owner too.
      if ((await this.#deps.media.lockForWrite(target.id, type === 'like' ? [target.ownerId] : [])) === null)
        throw mediaNotFound();
      const at = this.#deps.clock.now();
      const change = await this.#deps.repository.setReaction({
        id: newId(),
        userId: viewerId,
        mediaId: target.id,
        type,
        at,
      });
      await this.#deps.media.adjustCounters(target.id, counterMove(type, change));
      if (change !== 'unchanged' && type === 'like') {
        const ownLike = target.ownerId === viewerId;
        await this.#deps.events.publish('reaction.liked', {
          likerId: viewerId,
          mediaId: target.id,
          ownerId: target.ownerId,
          // Remembered once per liker and media, so unliking and liking again rewards no one twice.
          firstLikeOfPair: !ownLike && (await this.#deps.repository.claimLikeReward(viewerId, target.id, at)),
          likesReceived: await this.#deps.media.likesReceivedBy(target.ownerId),
        });
      }
      const reaction = await this.#deps.repository.find(viewerId, target.id);
      const counters = await this.#deps.media.counters(target.id);
      if (reaction === null || counters === null) throw mediaNotFound();
      return { reaction, likesCount: counters.likesCount, dislikesCount: counters.dislikesCount, change };
    });
  }

  /** Removes the viewer's reaction; 404 when they had none on this media. */
  async unreact(viewerId: string, mediaId: string): Promise<void> {
    const removed = await this.#deps.transactions.run(async () => {
      if ((await this.#deps.media.lockForWrite(mediaId, [])) === null) return null;
      const type = await this.#deps.repository.removeReaction(viewerId, mediaId);
      if (type !== null)
        await this.#deps.media.adjustCounters(mediaId, type === 'like' ? { likes: -1 } : { dislikes: -1 });
      return type;
    });
    if (removed === null) {
      throw new AppError('notFound', {
        source: { parameter: 'mediaId' },
        detail: 'you have no reaction on this media',
      });
    }
  }

  /** The viewer's own likes or dislikes, on media they can still open. */
  listOwn(viewerId: string, type: ReactionType, page: PageRequest) {
    return this.#deps.repository.listMediaOfUser(viewerId, type, 'visible', viewerId, page, []);
  }

  /**
   * A user's likes or dislikes as anyone sees them: 404 for a user others may not see, 403 when that
   * user keeps them private (unless they are the viewer), publicly listed media only.
   */
  async listOfUser(
    userId: string,
    type: ReactionType,
    viewerId: string | null,
    page: PageRequest,
  ): Promise<Array<ReactedMedia & { filtered?: FilterResult[] }>> {
    const user = await this.#deps.users.findVisibleTo(userId, viewerId);
    if (user === null) throw new AppError('notFound', { source: { parameter: 'userId' }, detail: 'no such user' });
    if (user.id !== viewerId && !showsReactionsPublicly(user.settings)) {
      throw new AppError('reactionsNotPublic', { source: { parameter: 'userId' } });
    }
    // Another user's list is a list of media the viewer reads: their keyword filters (context feeds) apply.
    const { filters } = this.#deps;
    const hiddenBy = await filters.hiddenFor(viewerId, 'feeds');
    const rows = await this.#deps.repository.listMediaOfUser(user.id, type, 'listed', viewerId, page, hiddenBy);
    return filters.warn(viewerId, 'feeds', rows, (row) => mediaFilterTextOf(row.media));
  }

  /** Who liked or disliked a media the viewer can see. */
  async listReactors(mediaId: string, type: ReactionType, viewerId: string | null, page: PageRequest) {
    const target = await this.#deps.media.findVisibleMedia(mediaId, viewerId);
    if (target === null) throw mediaNotFound();
    return this.#deps.repository.listUsersOfMedia(target.id, type, viewerId, page);
  }
}
