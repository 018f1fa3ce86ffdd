/** The search index's back office: reindex one source or a kind, and the health report (audited in the service). */
import { DocumentSchema } from '../../platform/http/jsonapi.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import {
  presentHealth,
  presentRebuild,
  presentReindexed,
  ReindexedDocumentSchema,
  SearchHealthSchema,
  SearchRebuildSchema,
} from './presenters.ts';
import type { SearchServices } from './public.ts';
import type { SearchKind } from './tables.ts';

const params = { hex: idParam('32 hex digits or UUID') };

export function searchAdminRoutes({ searchAdmin }: Pick<SearchServices, 'searchAdmin'>): AnyRoute[] {
  const kinds: Array<{ kind: SearchKind; base: string; noun: string }> = [
    { kind: 'media', base: '/admin/media', noun: 'media post' },
    { kind: 'user', base: '/admin/users', noun: 'user' },
  ];
  return [
    ...kinds.flatMap(({ kind, base, noun }) => [
      route({
        method: 'POST',
        path: `${base}/{hex}/reindex`,
        auth: 'admin',
        summary: `Refresh the search document of a ${noun} (removed when it is not public)`,
        params,
        errors: ['notFound'],
        success: { status: 200, schema: DocumentSchema(ReindexedDocumentSchema) },
        handler: async ({ params }) => ({
          data: presentReindexed(kind, params.hex, await searchAdmin.reindex(kind, params.hex)),
        }),
      }),
      route({
        method: 'POST',
        path: `${base}/reindex-all`,
        auth: 'admin',
        summary: `Rebuild the search documents of every ${noun} in batches (idempotent; answers counts)`,
        success: { status: 200, schema: DocumentSchema(SearchRebuildSchema) },
        handler: async () => ({ data: presentRebuild(await searchAdmin.reindexAll(kind)) }),
      }),
    ]),
    route({
      method: 'GET',
      path: '/admin/search/health',
      auth: 'admin',
      summary: 'Search documents against their sources per kind: stale, missing and orphaned counts, last runs',
      success: { status: 200, schema: DocumentSchema(SearchHealthSchema) },
      handler: async () => ({ data: presentHealth(await searchAdmin.health()) }),
    }),
  ];
}
