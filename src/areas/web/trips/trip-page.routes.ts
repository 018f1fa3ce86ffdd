/** GET /trips/{tripId}: a trip's page, with its route on the offline map (docs/api.md, Web pages). */

import { AppError } from '../../../platform/http/error-catalogue.ts';
import { type AnyRoute, idParam, route } from '../../../platform/http/route.ts';
import { loadClientAssets } from '../assets/client-assets.ts';
import type { MapSettings } from '../explorer/explorer-page.ts';
import { pageContext } from '../layout/page-context.ts';
import { htmlMediaType, sendPage } from '../layout/send-page.ts';
import type { WebServices } from '../public.ts';
import { renderTripPage } from './trip-page.ts';

export function tripPageRoutes(
  { trips, photoPanel }: Pick<WebServices, 'trips' | 'photoPanel'>,
  map: MapSettings,
): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/trips/{tripId}',
      operationId: 'getTripPage',
      auth: 'optional',
      summary: "A trip's page: title, dates, distance, cities, countries, its route on the map and its photos (HTML)",
      params: { tripId: idParam('The trip UUID', { hex: false }) },
      errors: ['notFound'],
      success: {
        status: 200,
        mediaType: htmlMediaType,
        description: 'The page; 404 for a trip the viewer may not see',
      },
      handler: async ({ viewer, params, request, reply }) => {
        const viewerId = viewer?.userId ?? null;
        const [context, view] = await Promise.all([
          pageContext(request, viewer),
          trips.get(viewerId, params.tripId),
          loadClientAssets(),
        ]);
        const owner = await photoPanel.users.findVisibleTo(view.trip.ownerId, viewerId);
        if (owner === null || owner.username === null)
          throw new AppError('notFound', { source: { parameter: 'tripId' } });
        const page = { view, owner: { username: owner.username, nickname: owner.nickname ?? owner.username } };
        return sendPage(reply, renderTripPage(context, page, map));
      },
    }),
  ];
}
