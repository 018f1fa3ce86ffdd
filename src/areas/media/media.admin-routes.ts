/** Media moderation: publication, flags, counters, deletion, orphan files. Every call is audited (in the service). */
import { Type } from 'typebox';
import { DocumentSchema } from '../../platform/http/jsonapi.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { JobRunDocumentSchema } from '../../platform/jobs/job-run-schema.ts';
import { AdminMediaSchema, presentAdminMedia } from './admin/media-admin.presenters.ts';
import { defaultOrphanGraceHours } from './admin/media-admin.service.ts';
import { emptyBodyAsObject } from './admin/optional-body.ts';
import { ContentWarningBody } from './media.routes.ts';
import { maxMediaFlag } from './media-flags.ts';
import type { MediaServices } from './public.ts';

const params = { hex: idParam('32 hex digits or UUID') };
const OneMedia = { status: 200, schema: DocumentSchema(AdminMediaSchema) } as const;

export function mediaAdminRoutes({ mediaAdmin }: Pick<MediaServices, 'mediaAdmin'>): AnyRoute[] {
  return [
    route({
      method: 'PUT',
      path: '/admin/media/{hex}/published',
      auth: 'admin',
      summary: 'Publish or unpublish a media (unpublished media answer 404 to everyone but the owner)',
      params,
      body: Type.Object({ published: Type.Boolean() }, { additionalProperties: false }),
      errors: ['notFound'],
      success: OneMedia,
      handler: async ({ params, body }) => ({
        data: presentAdminMedia(await mediaAdmin.setPublished(params.hex, body.published)),
      }),
    }),
    route({
      method: 'PUT',
      path: '/admin/media/{hex}/flag',
      auth: 'admin',
      summary:
        'Set the moderation flag: 0 none, 1 sensitive (left out of public lists), 2 hidden (404 to all but the owner)',
      params,
      body: Type.Object({ flag: Type.Integer({ minimum: 0, maximum: maxMediaFlag }) }, { additionalProperties: false }),
      errors: ['notFound'],
      success: OneMedia,
      handler: async ({ params, body }) => ({
        data: presentAdminMedia(await mediaAdmin.setFlag(params.hex, body.flag)),
      }),
    }),
    route({
      method: 'PUT',
      path: '/admin/media/{hex}/content-warning',
      auth: 'admin',
      summary: 'Impose a content warning on a media (its author may then neither change nor lift it), or lift it',
      params,
      body: ContentWarningBody,
      errors: ['notFound'],
      success: OneMedia,
      handler: async ({ params, body }) => ({
        data: presentAdminMedia(await mediaAdmin.setContentWarning(params.hex, body)),
      }),
    }),
    route({
      method: 'POST',
      path: '/admin/media/{hex}/recompute-stats',
      auth: 'admin',
      summary: 'Recount likes, dislikes and bookmarks of a media from their rows',
      params,
      errors: ['notFound'],
      success: {
        status: 200,
        schema: DocumentSchema(AdminMediaSchema, {
          meta: Type.Object({ before: Type.Object({}, { additionalProperties: true }) }),
        }),
      },
      handler: async ({ params }) => {
        const { before, row } = await mediaAdmin.recomputeStats(params.hex);
        return { data: presentAdminMedia(row), meta: { before } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/admin/media/{hex}',
      auth: 'admin',
      summary: 'Delete a media (post, avatar or cover), its row and its files',
      params,
      errors: ['notFound'],
      success: { status: 204 },
      handler: async ({ params }) => {
        await mediaAdmin.delete(params.hex);
      },
    }),
    route({
      method: 'POST',
      path: '/admin/jobs/cleanup-orphan-files',
      auth: 'admin',
      summary: `Delete stored files with no media row, older than graceHours (default ${defaultOrphanGraceHours})`,
      preValidation: emptyBodyAsObject,
      body: Type.Object(
        { graceHours: Type.Optional(Type.Integer({ minimum: 0, maximum: 24 * 365 })) },
        { additionalProperties: false },
      ),
      success: {
        status: 200,
        schema: JobRunDocumentSchema(
          Type.Object({
            scanned: Type.Integer(),
            removed: Type.Array(Type.String()),
            removedCount: Type.Integer(),
            keptWithinGrace: Type.Integer(),
            graceHours: Type.Integer(),
          }),
          'OrphanFilesRun',
        ),
      },
      handler: async ({ body }) => {
        const report = await mediaAdmin.cleanupOrphanFiles(body.graceHours ?? defaultOrphanGraceHours);
        return {
          data: {
            type: 'jobRuns',
            id: 'cleanup-orphan-files',
            attributes: { job: 'cleanup-orphan-files', ran: true, report },
          },
        };
      },
    }),
  ];
}
