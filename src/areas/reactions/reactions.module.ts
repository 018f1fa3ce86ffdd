/** Reactions: likes and dislikes of media, their lists, and media's like/dislike counters. A like publishes `reaction.liked`. */
import { byId } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { ReactionsRepository } from './reactions.repository.ts';
import { reactionsRoutes } from './reactions.routes.ts';
import { ReactionsService } from './reactions.service.ts';
import { ReactionsStatsRepository } from './reactions-stats.repository.ts';

export const reactionsArea = defineArea({
  name: 'reactions',
  needs: ['accounts', 'media', 'filters'],
  create({ transactions, events, clock, stats, exports }, { accounts, media, filters }) {
    const repository = new ReactionsRepository(transactions);
    exports.register({
      name: 'reactions',
      description: 'Your likes and dislikes of photos, and when you gave them.',
      rows: (userId) => byId((after, limit) => repository.exportRows(userId, after, limit)),
    });
    const reactionStats = new ReactionsStatsRepository(transactions);
    stats.register('reactions', (since) => reactionStats.reactions(since));
    media.mediaAdmin.addCounterSource(async (mediaId) => {
      const { likes, dislikes } = await repository.countsOf(mediaId);
      return { likesCount: likes, dislikesCount: dislikes };
    });
    // An erased account's reactions leave, and the counters of the media they were on move with them.
    events.subscribe('user.erasing', 'inTransaction', 'reactions.erase', async ({ userId }) => {
      for (const { mediaId, likes, dislikes } of await repository.eraseUser(userId)) {
        if (await media.media.lockForCounters(mediaId)) {
          await media.media.adjustCounters(mediaId, { likes: -likes, dislikes: -dislikes });
        }
      }
    });
    return {
      reactions: new ReactionsService({
        transactions,
        events,
        repository,
        filters: filters.filters,
        media: media.media,
        users: accounts.users,
        clock,
      }),
    };
  },
  routes: (app, services) => registerRoutes(app, 'reactions', reactionsRoutes(services)),
});
