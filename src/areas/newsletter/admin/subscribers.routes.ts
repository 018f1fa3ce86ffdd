/** The newsletter's back office: the subscriber list, newest first, by status. */
import { Type } from 'typebox';
import { CollectionSchema, StringEnum } from '../../../platform/http/jsonapi.ts';
import { registerRoutes, route } from '../../../platform/http/route.ts';
import type { App } from '../../../platform/http/types.ts';
import type { NewsletterServices } from '../newsletter.module.ts';
import { subscribersKeyset } from '../newsletter.repository.ts';
import { presentSubscriber, SubscriberSchema } from '../presenters.ts';
import { subscriberStatuses } from '../tables.ts';

export function newsletterAdminRoutes(app: App, { newsletter }: NewsletterServices) {
  registerRoutes(app, 'admin', [
    route({
      method: 'GET',
      path: '/admin/newsletter/subscribers',
      auth: 'admin',
      summary: 'Newsletter subscribers, newest first, whole or by status',
      page: { keyset: subscribersKeyset, defaultLimit: 50, maxLimit: 200 },
      query: { status: Type.Optional(StringEnum(subscriberStatuses)) },
      success: {
        status: 200,
        schema: CollectionSchema(SubscriberSchema, {
          total: Type.Integer({ description: 'Subscribers matching the filter' }),
        }),
      },
      handler: async ({ query, page, links }) => {
        const { page: result, total } = await newsletter.list(query.status, page);
        return { data: result.items.map(presentSubscriber), meta: { limit: page.limit, total }, links: links(result) };
      },
    }),
  ]);
}
