/**
 * The web front: server-rendered pages in one layout (layout/), the public pages (pages/), profiles,
 * sitemap and robots; the explorer, client assets, web sign-in and the newsletter's mailed links live
 * in explorer/, assets/, sign-in/ and newsletter/. Reads the other areas through their services only.
 */
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { settingsOf } from '../accounts/public.ts';
import { appealPageRoutes } from './appeals/appeal-page.routes.ts';
import { assetsRoutes } from './assets/assets.routes.ts';
import { bundleAssetsAfterStart } from './assets/bundle-after-start.ts';
import { embedRoutes } from './embed/embed.routes.ts';
import { explorerRoutes } from './explorer/explorer.routes.ts';
import { installLayout } from './layout/install-layout.ts';
import { layoutRoutes } from './layout/layout.routes.ts';
import { newsletterLinkRoutes } from './newsletter/newsletter-links.routes.ts';
import { pagesRoutes } from './pages.routes.ts';
import { PlaceCounts } from './place-counts.ts';
import { devicePushRoutes } from './security/device-push.routes.ts';
import { securityRoutes } from './security/security.routes.ts';
import { sharePageRoutes } from './share-links/share-page.routes.ts';
import { signInRoutes } from './sign-in/sign-in.routes.ts';
import { tripPageRoutes } from './trips/trip-page.routes.ts';
import { WebRepository } from './web.repository.ts';
import { WebPagesService } from './web-pages.service.ts';

export const webArea = defineArea({
  name: 'web',
  needs: [
    'accounts',
    'media',
    'discovery',
    'geography',
    'gamification',
    'catalogue',
    'follows',
    'identities',
    'newsletter',
    'appeals',
    'passkeys',
    'trips',
    'shareLinks',
    'notifications',
  ],
  create(
    { config, transactions, clock, caches },
    {
      accounts,
      media,
      discovery,
      geography,
      gamification,
      catalogue,
      follows,
      identities,
      newsletter,
      appeals,
      passkeys,
      trips,
      shareLinks,
      notifications,
    },
  ) {
    const repository = new WebRepository(transactions);
    const placeCounts = new PlaceCounts(repository, clock);
    caches.register('web.placeCounts', placeCounts.cache);
    const pages = new WebPagesService({
      repository,
      placeCounts,
      users: accounts.users,
      media: media.media,
      posts: media.posts,
      follows: follows.follows,
      geoMedia: discovery.geoMedia,
      geography: geography.geography,
      gamification: gamification.gamification,
      establishments: catalogue.establishments,
      trips: trips.trips,
      clock,
    });
    return {
      pages,
      signIn: {
        accounts: accounts.accounts,
        sessions: accounts.sessions,
        mailFlows: accounts.mailFlows,
        deletion: accounts.deletion,
        identities: identities.identities,
        passkeySignIn: passkeys.passkeySignIn,
      },
      security: {
        sessions: accounts.sessions,
        passkeys: passkeys.passkeys,
        pushSubscriptions: notifications.pushSubscriptions,
      },
      photoPanel: { users: accounts.users, media: media.media, posts: media.posts, geography: geography.geography },
      newsletter: newsletter.newsletter,
      appeals: appeals.appeals,
      trips: trips.trips,
      shareLinks: shareLinks.shareLinks,
      layout: {
        async findUser(userId) {
          const user = await accounts.users.find(userId);
          if (user === null) return null;
          const { blurSensitiveMedia } = settingsOf(user.settings);
          return { username: user.username, nickname: user.nickname, blurSensitiveMedia };
        },
        mapTileUrl: config.mapTileUrl,
        unreadNotifications: (userId) => notifications.notifications.unreadCount(userId),
      },
    };
  },
  routes(app, services, { config, jobs }) {
    const map = { tileUrl: config.mapTileUrl, tileAttribution: config.mapTileAttribution };
    installLayout(app, services.layout);
    bundleAssetsAfterStart(app, jobs);
    registerRoutes(app, 'web', [
      ...layoutRoutes(),
      ...pagesRoutes(services),
      ...assetsRoutes(),
      ...signInRoutes(services, { sessionTtlDays: config.sessionTtlDays }),
      ...explorerRoutes(services, map),
      ...tripPageRoutes(services, map),
      ...newsletterLinkRoutes(services),
      ...securityRoutes(services),
      ...devicePushRoutes(services),
      ...appealPageRoutes(services),
      ...sharePageRoutes(services),
      ...embedRoutes(services),
    ]);
  },
});
