/** The face of comments: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { CommentsService } from './comments.service.ts';

export interface CommentsServices {
  comments: CommentsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    comments: CommentsServices;
  }
}

export { commentMaxLength } from './comment-text.ts';
export type { CommentsService } from './comments.service.ts';
