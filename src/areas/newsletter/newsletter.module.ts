/**
 * Newsletter: double opt-in subscriptions (API and web form), confirmation and unsubscription pages
 * (RFC 8058 one-click included), and the admin subscriber list. Needs accounts only for the data export
 * and the erasure of a deleted account (a user's subscription is the one of their account's e-mail address).
 */
import { singleRow } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { NewsletterRepository } from './newsletter.repository.ts';
import { newsletterRoutes } from './newsletter.routes.ts';
import { NewsletterService } from './newsletter.service.ts';
import { newsletterAdminRoutes } from './subscribers.admin-routes.ts';

export const newsletterArea = defineArea({
  name: 'newsletter',
  needs: ['accounts'],
  create({ transactions, events, mail, clock, config, logger, exports }, { accounts }) {
    const subscriberRows = new NewsletterRepository(transactions);
    events.subscribe('user.erasing', 'inTransaction', 'newsletter.erase', async ({ userId }) => {
      const user = await accounts.users.find(userId);
      if (user !== null) await subscriberRows.eraseEmail(user.email);
    });
    exports.register({
      name: 'newsletter',
      description: "The newsletter subscription of your account's e-mail address, if any: status and dates.",
      rows: (userId) =>
        singleRow(async () => {
          const user = await accounts.users.find(userId);
          return user === null ? null : subscriberRows.exportRow(user.email);
        }),
    });
    return {
      newsletter: new NewsletterService({
        transactions,
        repository: new NewsletterRepository(transactions),
        mail,
        clock,
        publicUrl: config.publicUrl,
        logger,
      }),
    };
  },
  routes(app, services) {
    registerRoutes(app, 'newsletter', newsletterRoutes(services));
    registerRoutes(app, 'admin', newsletterAdminRoutes(services));
  },
  // Subscriptions are worked after their answer; a graceful stop waits for them to file their mail.
  stop: ({ newsletter }) => newsletter.drain(),
});
