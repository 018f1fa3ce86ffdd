/** POST /admin/media/backfill-geo: city and country for positioned media never geocoded (audited in the service). */
import { Type } from 'typebox';
import { DocumentSchema, ResourceSchema, resource } from '../../platform/http/jsonapi.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { MediaServices } from './public.ts';

const count = (description: string) => Type.Integer({ minimum: 0, description });

const GeoBackfillSchema = ResourceSchema(
  'geoBackfillRuns',
  Type.Object({
    examined: count('positioned media never geocoded, looked at by this run'),
    located: count('given the nearest city (within 25 km) and its country'),
    notLocated: count('no city within 25 km (at sea or far from any town): left without a place, not retried'),
    batches: count('batches committed, each in its own transaction'),
  }),
  undefined,
  'GeoBackfillRun',
);

export function geoBackfillAdminRoutes({ geoBackfill }: Pick<MediaServices, 'geoBackfill'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/admin/media/backfill-geo',
      auth: 'admin',
      summary:
        'Reverse-geocode every positioned media never geocoded, in committed batches (resumable); a second run does nothing',
      success: { status: 200, schema: DocumentSchema(GeoBackfillSchema) },
      handler: async () => ({ data: resource('geoBackfillRuns', newId(), await geoBackfill.run()) }),
    }),
  ];
}
