/** Social feeds: shareable selections over a user's own public media, found by an unguessable code. */
import { defineArea } from '../../platform/modules/area-module.ts';
import { SocialFeedsRepository } from './social-feeds.repository.ts';
import { socialFeedsRoutes } from './social-feeds.routes.ts';
import { SocialFeedsService } from './social-feeds.service.ts';

export interface SocialFeedsServices {
  socialFeeds: SocialFeedsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    socialFeeds: SocialFeedsServices;
  }
}

export const socialFeedsArea = defineArea({
  name: 'socialFeeds',
  needs: ['accounts', 'geography'],
  create({ transactions, clock }, { accounts, geography }) {
    const repository = new SocialFeedsRepository(transactions);
    return {
      socialFeeds: new SocialFeedsService(transactions, repository, accounts.users, geography.geography, clock),
    };
  },
  routes: socialFeedsRoutes,
});
