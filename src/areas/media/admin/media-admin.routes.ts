/** Media moderation: publication, flags, counters, deletion, orphan files. Every call is audited. */
import { Type } from 'typebox';
import { requireUuidParam } from '../../../platform/http/ids.ts';
import { DocumentSchema, ResourceSchema } from '../../../platform/http/jsonapi.ts';
import type { App } from '../../../platform/http/types.ts';
import type { MediaServices } from '../media.module.ts';
import { maxMediaFlag } from '../media-flags.ts';
import { AdminMediaSchema, presentAdminMedia } from './media-admin.presenters.ts';
import { defaultOrphanGraceHours } from './media-admin.service.ts';
import { emptyBodyAsObject } from './optional-body.ts';

const HexParams = Type.Object({ hex: Type.String({ description: '32 hex digits or UUID' }) });

export function mediaAdminRoutes(app: App, { mediaAdmin }: MediaServices) {
  app.put(
    '/admin/media/:hex/published',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Publish or unpublish a media (unpublished media answer 404 to everyone but the owner)',
        params: HexParams,
        body: Type.Object({ published: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: DocumentSchema(AdminMediaSchema) },
      },
    },
    async (request) => {
      const id = requireUuidParam(request.params.hex, 'hex');
      const row = await mediaAdmin.setPublished(id, request.body.published);
      return { data: presentAdminMedia(row) };
    },
  );

  app.put(
    '/admin/media/:hex/flag',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          'Set the moderation flag: 0 none, 1 sensitive (left out of public lists), 2 hidden (404 to all but the owner)',
        params: HexParams,
        body: Type.Object(
          { flag: Type.Integer({ minimum: 0, maximum: maxMediaFlag }) },
          { additionalProperties: false },
        ),
        response: { 200: DocumentSchema(AdminMediaSchema) },
      },
    },
    async (request) => {
      const id = requireUuidParam(request.params.hex, 'hex');
      const row = await mediaAdmin.setFlag(id, request.body.flag);
      return { data: presentAdminMedia(row) };
    },
  );

  app.post(
    '/admin/media/:hex/recompute-stats',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Recount likes, dislikes and bookmarks of a media from their rows',
        params: HexParams,
        response: {
          200: DocumentSchema(AdminMediaSchema, {
            meta: Type.Object({ before: Type.Object({}, { additionalProperties: true }) }),
          }),
        },
      },
    },
    async (request) => {
      const id = requireUuidParam(request.params.hex, 'hex');
      const { before, row } = await mediaAdmin.recomputeStats(id);
      return { data: presentAdminMedia(row), meta: { before } };
    },
  );

  app.delete(
    '/admin/media/:hex',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Delete a media (post, avatar or cover), its row and its files',
        params: HexParams,
      },
    },
    async (request, reply) => {
      const id = requireUuidParam(request.params.hex, 'hex');
      await mediaAdmin.delete(id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/admin/jobs/cleanup-orphan-files',
    {
      config: { auth: 'admin' },
      preValidation: emptyBodyAsObject,
      schema: {
        tags: ['admin'],
        summary: `Delete stored files with no media row, older than graceHours (default ${defaultOrphanGraceHours})`,
        body: Type.Object(
          { graceHours: Type.Optional(Type.Integer({ minimum: 0, maximum: 24 * 365 })) },
          { additionalProperties: false },
        ),
        response: {
          200: DocumentSchema(
            ResourceSchema(
              'jobRuns',
              Type.Object({
                job: Type.String(),
                ran: Type.Boolean(),
                report: Type.Object({
                  scanned: Type.Integer(),
                  removed: Type.Array(Type.String()),
                  removedCount: Type.Integer(),
                  keptWithinGrace: Type.Integer(),
                  graceHours: Type.Integer(),
                }),
              }),
            ),
          ),
        },
      },
    },
    async (request) => {
      const graceHours = request.body.graceHours ?? defaultOrphanGraceHours;
      const report = await mediaAdmin.cleanupOrphanFiles(graceHours);
      return {
        data: {
          type: 'jobRuns',
          id: 'cleanup-orphan-files',
          attributes: { job: 'cleanup-orphan-files', ran: true, report },
        },
      };
    },
  );
}
