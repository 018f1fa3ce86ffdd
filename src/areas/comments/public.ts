/** The face of comments: what other areas and its own routes may import of it (docs/development.md, How areas talk). */
import type { CommentsService } from './comments.service.ts';

export interface CommentsServices {
  comments: CommentsService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    comments: CommentsServices;
  }
}
