/** Follows: who follows whom. A new follow publishes `follow.created` (notifications and gamification subscribe). */
import { keysetBatches } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { FollowsRepository } from './follows.repository.ts';
import { followsRoutes } from './follows.routes.ts';
import { FollowsService } from './follows.service.ts';
import { FollowsStatsRepository } from './follows-stats.repository.ts';
import { RemoteFollowingGate } from './remote-following.ts';

export const followsArea = defineArea({
  name: 'follows',
  needs: ['accounts'],
  create({ transactions, events, clock, stats, exports }, { accounts }) {
    const followStats = new FollowsStatsRepository(transactions);
    stats.register('follows', (since) => followStats.follows(since));
    const repository = new FollowsRepository(transactions);
    exports.register({
      name: 'following',
      description: 'The accounts you follow (followeeId), and since when.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => repository.exportRows(userId, 'following', after, limit),
          (row) => row.followeeId,
        ),
    });
    exports.register({
      name: 'followers',
      description: 'The accounts that follow you (followerId), and since when.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => repository.exportRows(userId, 'followers', after, limit),
          (row) => row.followerId,
        ),
    });
    // A block removes the follows both ways in its transaction (both users locked by accounts).
    events.subscribe('user.blocked', 'inTransaction', 'follows.removeBlocked', ({ blockerId, blockedId }) =>
      repository.deleteBetween(blockerId, blockedId),
    );
    events.subscribe('user.erasing', 'inTransaction', 'follows.erase', ({ userId }) => repository.eraseUser(userId));
    const remoteFollowing = new RemoteFollowingGate();
    return {
      follows: new FollowsService({ transactions, events, repository, users: accounts.users, clock, remoteFollowing }),
      remoteFollowing,
    };
  },
  routes: (app, services) => registerRoutes(app, 'follows', followsRoutes(services)),
});
