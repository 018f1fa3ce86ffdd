/** The face of web: its services, which its routes take (docs/development.md, How areas talk). */
import type { AccountsServices } from '../accounts/public.ts';
import type { AppealsServices } from '../appeals/public.ts';
import type { GeographyServices } from '../geography/public.ts';
import type { IdentitiesServices } from '../identities/public.ts';
import type { MediaServices } from '../media/public.ts';
import type { NewsletterServices } from '../newsletter/public.ts';
import type { NotificationsServices } from '../notifications/public.ts';
import type { PasskeysServices } from '../passkeys/public.ts';
import type { ShareLinksServices } from '../share-links/public.ts';
import type { TripsServices } from '../trips/public.ts';
import type { LayoutSettings } from './layout/page-context.ts';
import type { WebPagesService } from './web-pages.service.ts';

/** What the web sign-in calls: the API's sign-in, sessions and mailed flows, provider and passkey sign-in. */
export interface SignInServices {
  accounts: AccountsServices['accounts'];
  sessions: AccountsServices['sessions'];
  mailFlows: AccountsServices['mailFlows'];
  deletion: AccountsServices['deletion'];
  identities: IdentitiesServices['identities'];
  passkeySignIn: PasskeysServices['passkeySignIn'];
}

/** What the security page calls: the cookie's session, the viewer's passkeys and this device's push subscription. */
export interface SecurityServices {
  sessions: AccountsServices['sessions'];
  passkeys: PasskeysServices['passkeys'];
  pushSubscriptions: NotificationsServices['pushSubscriptions'];
}

/** What the explorer's photo panel reads. */
export interface PhotoPanelSources {
  users: AccountsServices['users'];
  media: MediaServices['media'];
  posts: MediaServices['posts'];
  geography: GeographyServices['geography'];
}

/** The web area keeps no state of its own: its services read the areas it shows, through their services. */
export interface WebServices {
  /** What the public pages show (home, travel, profiles, establishments, sitemap). */
  pages: WebPagesService;
  signIn: SignInServices;
  security: SecurityServices;
  photoPanel: PhotoPanelSources;
  /** The pages of the newsletter's mailed links. */
  newsletter: NewsletterServices['newsletter'];
  /** The trip pages and the profile's trips. */
  trips: TripsServices['trips'];
  /** The page of a banned user's appeal link. */
  appeals: AppealsServices['appeals'];
  /** The page a share link opens (GET /s/{token}). */
  shareLinks: ShareLinksServices['shareLinks'];
  /** The viewer's names in the header, and the map tiles' origin (MAP_TILE_URL) the pages' CSP allows. */
  layout: LayoutSettings;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    web: WebServices;
  }
}
