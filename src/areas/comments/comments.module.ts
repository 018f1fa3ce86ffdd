/**
 * Comments: comments on media posts, replies to them (two levels deep), edits, soft deletion, and
 * media's comments counter. A new comment publishes `comment.created` (gamification rewards it). It
 * follows accounts' `user.banned` / `user.unbanned` (a banned author's comments leave public threads)
 * and `user.anonymized` (an erased author's comments become placeholders, mentions are renamed).
 */
import { byId } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import '../accounts/events.ts';
import { CommentsRepository } from './comments.repository.ts';
import { commentsRoutes } from './comments.routes.ts';
import { CommentsService } from './comments.service.ts';
import { CommentsStatsRepository } from './comments-stats.repository.ts';

export const commentsArea = defineArea({
  name: 'comments',
  needs: ['accounts', 'media', 'filters'],
  create({ transactions, events, clock, stats, exports }, { accounts, media, filters }) {
    const commentRows = new CommentsRepository(transactions);
    exports.register({
      name: 'comments',
      description: 'The comments you wrote (deleted ones without their text), on which photo, and when.',
      rows: (userId) => byId((after, limit) => commentRows.exportRows(userId, after, limit)),
    });
    const comments = new CommentsService({
      transactions,
      events,
      repository: commentRows,
      media: media.media,
      users: accounts.users,
      filters: filters.filters,
      clock,
    });
    media.mediaAdmin.addCounterSource(async (mediaId) => ({ commentsCount: await comments.visibleCountOf(mediaId) }));
    const commentStats = new CommentsStatsRepository(transactions);
    stats.register('comments', (since) => commentStats.comments(since));
    events.subscribe('user.banned', 'inTransaction', 'comments.hideBannedAuthor', ({ userId }) =>
      comments.setAuthorBanned(userId, true),
    );
    events.subscribe('user.unbanned', 'inTransaction', 'comments.showUnbannedAuthor', ({ userId }) =>
      comments.setAuthorBanned(userId, false),
    );
    events.subscribe(
      'user.anonymized',
      'inTransaction',
      'comments.eraseAuthor',
      ({ userId, formerUsername, username }) => comments.eraseAuthor(userId, formerUsername, username),
    );
    events.subscribe('user.erasing', 'inTransaction', 'comments.erase', ({ userId }) => comments.eraseUser(userId));
    return { comments };
  },
  routes: (app, services) => registerRoutes(app, 'comments', commentsRoutes(services)),
});
