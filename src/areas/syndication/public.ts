/** The face of syndication: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { FeedsService } from './feeds.service.ts';
import type { OEmbedService } from './oembed.service.ts';

export interface SyndicationServices {
  /** The feeds, and `feeds.sources`: where an area registers a kind of feed (feed-sources.ts). */
  feeds: FeedsService;
  /** oEmbed, and `oembed.kinds`: where an area registers a kind of page (oembed-kinds.ts). */
  oembed: OEmbedService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    syndication: SyndicationServices;
  }
}

export type { Feed, FeedEntry } from './feed.ts';
export type { FeedSource } from './feed-sources.ts';
export type { OEmbedKind, OEmbedSubject } from './oembed-kinds.ts';
export {
  embedPostPath,
  embedProfilePath,
  oembedPath,
  postPagePath,
  profileFeedPath,
  profilePagePath,
} from './paths.ts';
