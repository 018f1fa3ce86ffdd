/** The face of newsletter: what other areas and its own routes may import of it (docs/development.md, How areas talk). */
import type { NewsletterService } from './newsletter.service.ts';

export interface NewsletterServices {
  newsletter: NewsletterService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    newsletter: NewsletterServices;
  }
}
