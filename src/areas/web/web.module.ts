/**
 * The web front: server-rendered pages in one layout (layout/), the public pages (pages/), profiles,
 * sitemap and robots; the explorer, client assets, web sign-in and the newsletter's mailed links live
 * in explorer/, assets/, sign-in/ and newsletter/. Reads the other areas through their services only.
 */
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import type { AccountsServices } from '../accounts/accounts.module.ts';
import type { CatalogueServices } from '../catalogue/catalogue.module.ts';
import type { DiscoveryServices } from '../discovery/discovery.module.ts';
import type { FollowsServices } from '../follows/follows.module.ts';
import type { GamificationServices } from '../gamification/gamification.module.ts';
import type { GeographyServices } from '../geography/geography.module.ts';
import type { IdentitiesServices } from '../identities/identities.module.ts';
import type { MediaServices } from '../media/media.module.ts';
import type { NewsletterServices } from '../newsletter/newsletter.module.ts';
import { assetsRoutes } from './assets/assets.routes.ts';
import { explorerRoutes } from './explorer/explorer.routes.ts';
import { installLayout } from './layout/install-layout.ts';
import { layoutRoutes } from './layout/layout.routes.ts';
import { newsletterLinkRoutes } from './newsletter/newsletter-links.routes.ts';
import { pagesRoutes } from './pages.routes.ts';
import { PlaceCounts } from './place-counts.ts';
import { signInRoutes } from './sign-in/sign-in.routes.ts';
import { WebRepository } from './web.repository.ts';
import { WebPagesService } from './web-pages.service.ts';

/** The web area keeps no state of its own: it reads the areas it shows. */
export interface WebServices {
  accounts: AccountsServices;
  media: MediaServices;
  discovery: DiscoveryServices;
  geography: GeographyServices;
  gamification: GamificationServices;
  catalogue: CatalogueServices;
  follows: FollowsServices;
  /** What the public pages show (home, travel, profiles, establishments, sitemap). */
  pages: WebPagesService;
  /** Provider sign-in, for POST /auth/oauth/{provider}. */
  identities: IdentitiesServices;
  /** The pages of the newsletter's mailed links. */
  newsletter: NewsletterServices;
  /** MAP_TILE_URL, when set (its origin is allowed in the pages' img-src). */
  mapTileUrl: string | null;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    web: WebServices;
  }
}

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
  ],
  create(
    { config, transactions, clock, caches },
    { accounts, media, discovery, geography, gamification, catalogue, follows, identities, newsletter },
  ) {
    const repository = new WebRepository(transactions);
    const placeCounts = new PlaceCounts(repository, clock);
    caches.register('web.placeCounts', placeCounts.cache);
    const pages = new WebPagesService({
      repository,
      placeCounts,
      users: accounts.users,
      media: media.media,
      follows: follows.follows,
      geoMedia: discovery.geoMedia,
      geography: geography.geography,
      gamification: gamification.gamification,
      establishments: catalogue.establishments,
      clock,
    });
    const mapTileUrl = config.mapTileUrl;
    return {
      accounts,
      media,
      discovery,
      geography,
      gamification,
      catalogue,
      follows,
      pages,
      identities,
      newsletter,
      mapTileUrl,
    };
  },
  routes(app, services, { config }) {
    installLayout(app, { findUser: (userId) => services.accounts.users.find(userId), mapTileUrl: services.mapTileUrl });
    registerRoutes(app, 'web', [...layoutRoutes, ...pagesRoutes(services.pages)]);
    assetsRoutes(app);
    registerRoutes(app, 'web', [
      ...signInRoutes({
        accounts: services.accounts,
        identities: services.identities,
        sessionTtlDays: config.sessionTtlDays,
      }),
      ...explorerRoutes(services, { tileUrl: config.mapTileUrl, tileAttribution: config.mapTileAttribution }),
      ...newsletterLinkRoutes(services.newsletter),
    ]);
  },
});
