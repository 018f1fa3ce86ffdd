/** The face of media: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { DescribeQueueService } from './admin/describe-queue.service.ts';
import type { GeoBackfillService } from './admin/geo-backfill.service.ts';
import type { MediaAdminService } from './admin/media-admin.service.ts';
import type { MediaService } from './media.service.ts';
import type { MediaUploadService } from './media-upload.service.ts';
import type { MediaVariantService } from './media-variants.ts';
import type { PostsService } from './posts.service.ts';

export interface MediaServices {
  media: MediaService;
  mediaUploads: MediaUploadService;
  mediaVariants: MediaVariantService;
  describeQueue: DescribeQueueService;
  mediaAdmin: MediaAdminService;
  geoBackfill: GeoBackfillService;
  posts: PostsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    media: MediaServices;
  }
}

export type { MediaAdminService } from './admin/media-admin.service.ts';
export type { MediaService } from './media.service.ts';
export { isPubliclyListed, isPubliclyVisible, mediaFlags } from './media-flags.ts';
export { mediaVariantUrls, thumbnailPath } from './media-urls.ts';
export { PostSchema, presentPost } from './post-presenters.ts';
export type { Post, PostsService } from './posts.service.ts';
export { ListedMediaSchema, MediaSchema, presentListedMedia, presentMedia } from './presenters.ts';
