/** The newsletter's back office: the subscriber list, newest first, by status. */
import { Type } from 'typebox';
import { CollectionSchema, StringEnum } from '../../platform/http/jsonapi.ts';
import { pageDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { subscribersKeyset } from './newsletter.repository.ts';
import { presentSubscriber, SubscriberSchema } from './presenters.ts';
import type { NewsletterServices } from './public.ts';
import { subscriberStatuses } from './tables.ts';

export function newsletterAdminRoutes({ newsletter }: Pick<NewsletterServices, 'newsletter'>): AnyRoute[] {
  return [
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
        return pageDocument(result, { page, links }, presentSubscriber, { total });
      },
    }),
  ];
}
