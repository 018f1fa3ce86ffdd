/**
 * Newsletter: double opt-in subscriptions (API and web form), confirmation and unsubscription pages
 * (RFC 8058 one-click included), and the admin subscriber list. Needs no other area.
 */
import { defineArea } from '../../platform/modules/area-module.ts';
import { newsletterAdminRoutes } from './admin/subscribers.routes.ts';
import { NewsletterRepository } from './newsletter.repository.ts';
import { newsletterRoutes } from './newsletter.routes.ts';
import { NewsletterService } from './newsletter.service.ts';

export interface NewsletterServices {
  newsletter: NewsletterService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    newsletter: NewsletterServices;
  }
}

export const newsletterArea = defineArea({
  name: 'newsletter',
  needs: [],
  create({ transactions, mailer, clock, config, logger }) {
    return {
      newsletter: new NewsletterService({
        transactions,
        repository: new NewsletterRepository(transactions),
        mailer,
        clock,
        publicUrl: config.publicUrl,
        logger,
      }),
    };
  },
  routes(app, services) {
    newsletterRoutes(app, services);
    newsletterAdminRoutes(app, services);
  },
  // Confirmation mails are prepared and handed over in the background; a graceful stop waits for them.
  stop: ({ newsletter }) => newsletter.drain(),
});
