/**
 * Gamification: experience and levels, titles, badges. It rewards what happens elsewhere by
 * subscribing to those areas' events (rewards.ts). Operator commands: xp:award, badges:award.
 */
import { byId, keysetBatches } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { badgesAwardCommand } from './badges-award.command.ts';
import { GamificationRepository } from './gamification.repository.ts';
import { gamificationRoutes } from './gamification.routes.ts';
import { GamificationService } from './gamification.service.ts';
import { dailyExperienceCeilings, subscribeRewards, takeBackWithinHours } from './rewards.ts';
import { xpAwardCommand } from './xp-award.command.ts';

export const gamificationArea = defineArea({
  name: 'gamification',
  needs: ['accounts', 'notifications'],
  create({ transactions, events, clock, exports }, { accounts, notifications }) {
    const repository = new GamificationRepository(transactions);
    exports.register({
      name: 'badges',
      description: 'The badges you earned, their level, and when.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => repository.exportBadges(userId, after, limit),
          (row) => row.badgeId,
        ),
    });
    exports.register({
      name: 'experience',
      description: 'Every award of experience points you received (and any taken back), with its reason.',
      rows: (userId) => byId((after, limit) => repository.exportExperience(userId, after, limit)),
    });
    const gamification = new GamificationService(
      transactions,
      repository,
      accounts.users,
      notifications.dispatcher,
      clock,
      { dailyCeilings: dailyExperienceCeilings, takeBackWithinHours },
    );
    subscribeRewards(events, gamification);
    events.subscribe('user.erasing', 'inTransaction', 'gamification.erase', ({ userId }) =>
      repository.eraseUser(userId),
    );
    return { gamification };
  },
  routes: (app, services) => registerRoutes(app, 'badges', gamificationRoutes(services)),
  cliCommands: [xpAwardCommand, badgesAwardCommand],
});
