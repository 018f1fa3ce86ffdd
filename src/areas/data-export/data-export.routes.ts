/** GET /api/users/me/export: the caller's data as a ZIP, streamed (docs/api.md, Data export). */
import { perIp, perUser, type RateLimitRule } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import type { DataExportServices } from './public.ts';

/** An export reads every row of the account: 5 an hour per user, after 30 an hour per address. */
export const exportRateLimits: RateLimitRule[] = [perIp('data-export', 30, 3600), perUser('data-export', 5, 3600)];

export function dataExportRoutes({ dataExport }: Pick<DataExportServices, 'dataExport'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/users/me/export',
      auth: 'user',
      summary:
        'Everything the service keeps about me, as a ZIP streamed as it is made: a JSON file per section, my original photos under media/, manifest.json and README.txt. One export at a time (409 exportInProgress)',
      errors: ['exportInProgress'],
      rateLimit: exportRateLimits,
      success: {
        status: 200,
        mediaType: 'application/zip',
        description: 'The archive (Content-Disposition: attachment), streamed; a failure midway breaks the transfer',
      },
      handler: async ({ viewer, locale, request, reply }) => {
        // Fastify answers HEAD with this handler: it must not build (and drop) a whole archive under the lease.
        if (request.method === 'HEAD') return reply.header('Content-Type', 'application/zip').send();
        const { stream, fileName } = await dataExport.start(viewer.userId, locale);
        return reply
          .header('Content-Type', 'application/zip')
          .header('Content-Disposition', `attachment; filename="${fileName}"`)
          .header('Cache-Control', 'no-store')
          .send(stream);
      },
    }),
  ];
}
