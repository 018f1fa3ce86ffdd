/**
 * Gamification: experience and levels, titles, badges. It rewards what happens elsewhere by
 * subscribing to those areas' events (rewards.ts). Operator commands: xp:award, badges:award.
 */
import { defineArea } from '../../platform/modules/area-module.ts';
import { badgesAwardCommand } from './badges-award.command.ts';
import { GamificationRepository } from './gamification.repository.ts';
import { gamificationRoutes } from './gamification.routes.ts';
import { GamificationService } from './gamification.service.ts';
import { dailyExperienceCeilings, subscribeRewards, takeBackWithinHours } from './rewards.ts';
import { xpAwardCommand } from './xp-award.command.ts';

export interface GamificationServices {
  gamification: GamificationService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    gamification: GamificationServices;
  }
}

export const gamificationArea = defineArea({
  name: 'gamification',
  needs: ['accounts', 'notifications'],
  create({ transactions, events, clock }, { accounts, notifications }) {
    const gamification = new GamificationService(
      transactions,
      new GamificationRepository(transactions),
      accounts.users,
      notifications.dispatcher,
      clock,
      { dailyCeilings: dailyExperienceCeilings, takeBackWithinHours },
    );
    subscribeRewards(events, gamification);
    return { gamification };
  },
  routes: gamificationRoutes,
  cliCommands: [xpAwardCommand, badgesAwardCommand],
});
