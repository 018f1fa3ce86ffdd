/** The face of newsletter: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { NewsletterService } from './newsletter.service.ts';

export interface NewsletterServices {
  newsletter: NewsletterService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    newsletter: NewsletterServices;
  }
}
