/** The face of share links: its service, and what other areas may import of it (docs/development.md, How areas talk). */
import type { ShareLinksService } from './share-links.service.ts';

export interface ShareLinksServices {
  /** The links, and `shareLinks.targets`: where an area registers a kind of target (share-targets.ts). */
  shareLinks: ShareLinksService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    shareLinks: ShareLinksServices;
  }
}

export type { OpenedShareLink, ShareLinksService } from './share-links.service.ts';
export { shareLinkLimits } from './share-links.service.ts';
export type { SharedPhoto, SharedView, ShareTarget } from './share-targets.ts';
export { targetNotFound } from './share-targets.ts';
