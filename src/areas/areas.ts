/**
 * Every area of the service, one line each, in the order they are built (an area comes after the
 * areas it needs; the build checks it) and their routes registered. Adding an area is adding its
 * line here; the app, the CLI and the job runner take everything else from the module.
 */
import type { AnyAreaModule } from '../platform/modules/area-module.ts';
import { accountsArea } from './accounts/accounts.module.ts';
import { appealsArea } from './appeals/appeals.module.ts';
import { bookmarksArea } from './bookmarks/bookmarks.module.ts';
import { catalogueArea } from './catalogue/catalogue.module.ts';
import { commentsArea } from './comments/comments.module.ts';
import { couponsArea } from './coupons/coupons.module.ts';
import { dataExportArea } from './data-export/data-export.module.ts';
import { discoveryArea } from './discovery/discovery.module.ts';
import { federationArea } from './federation/federation.module.ts';
import { filtersArea } from './filters/filters.module.ts';
import { followsArea } from './follows/follows.module.ts';
import { gamificationArea } from './gamification/gamification.module.ts';
import { geographyArea } from './geography/geography.module.ts';
import { hashtagsArea } from './hashtags/hashtags.module.ts';
import { identitiesArea } from './identities/identities.module.ts';
import { mediaArea } from './media/media.module.ts';
import { newsletterArea } from './newsletter/newsletter.module.ts';
import { notificationsArea } from './notifications/notifications.module.ts';
import { passkeysArea } from './passkeys/passkeys.module.ts';
import { reactionsArea } from './reactions/reactions.module.ts';
import { reportsArea } from './reports/reports.module.ts';
import { searchArea } from './search/search.module.ts';
import { shareLinksArea } from './share-links/share-links.module.ts';
import { socialFeedsArea } from './social-feeds/social-feeds.module.ts';
import { syndicationArea } from './syndication/syndication.module.ts';
import { systemArea } from './system/system.module.ts';
import { topicsArea } from './topics/topics.module.ts';
import { trackingArea } from './tracking/tracking.module.ts';
import { tripsArea } from './trips/trips.module.ts';
import { userAdminArea } from './user-admin/user-admin.module.ts';
import { webArea } from './web/web.module.ts';

// biome-ignore format: one area a line
export const areaModules: readonly AnyAreaModule[] = [
  systemArea,
  geographyArea,
  catalogueArea,
  accountsArea,
  filtersArea,
  identitiesArea,
  passkeysArea,
  notificationsArea,
  gamificationArea,
  mediaArea,
  followsArea,
  reactionsArea,
  bookmarksArea,
  shareLinksArea,
  commentsArea,
  reportsArea,
  appealsArea,
  hashtagsArea,
  searchArea,
  topicsArea,
  socialFeedsArea,
  discoveryArea,
  userAdminArea,
  newsletterArea,
  couponsArea,
  trackingArea,
  tripsArea,
  dataExportArea,
  syndicationArea,
  federationArea,
  webArea,
];
