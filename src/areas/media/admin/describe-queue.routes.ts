/** The description queue's admin API, worked by an outside worker. Every call is audited. */
import { Type } from 'typebox';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { parseUuidOrHex, requireUuidParam } from '../../../platform/http/ids.ts';
import { CollectionSchema, DocumentSchema, ResourceSchema } from '../../../platform/http/jsonapi.ts';
import { pageLinks, pageQuerySchema, pageRequest } from '../../../platform/http/pagination.ts';
import type { App } from '../../../platform/http/types.ts';
import { hashtagPattern, maxHashtags } from '../hashtags.ts';
import type { MediaServices } from '../media.module.ts';
import { maxDescriptionLength } from '../media.routes.ts';
import type { DescribeStatus } from '../tables.ts';
import { defaultLeaseSeconds, maxLeaseSeconds } from './describe-queue.service.ts';
import { AdminMediaSchema, presentAdminMedia } from './media-admin.presenters.ts';
import { emptyBodyAsObject } from './optional-body.ts';

const HexParams = Type.Object({ hex: Type.String({ description: '32 hex digits or UUID' }) });
const statuses = ['pending', 'claimed', 'described', 'failed', 'skipped'] as const;

function bodyMediaId(value: string): string {
  const id = parseUuidOrHex(value);
  if (id === null) throw new AppError('invalidId', { source: { pointer: '/mediaId' } });
  return id;
}

export function describeQueueRoutes(app: App, { describeQueue, mediaVariants }: MediaServices) {
  app.get(
    '/admin/jobs/describe-queue',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'The description queue, newest first: pending and claimed items unless status says otherwise',
        querystring: Type.Object(
          {
            ...pageQuerySchema(50, 200),
            status: Type.Optional(Type.Union(statuses.map((status) => Type.Literal(status)))),
          },
          { additionalProperties: false },
        ),
        response: {
          200: CollectionSchema(AdminMediaSchema, { total: Type.Integer(), statuses: Type.Array(Type.String()) }),
        },
      },
    },
    async (request) => {
      const wanted: DescribeStatus[] = request.query.status ? [request.query.status] : ['pending', 'claimed'];
      const { page, total } = await describeQueue.list(wanted, pageRequest(request.query, ['timestamp', 'uuid'], 50));
      return {
        data: page.items.map(presentAdminMedia),
        meta: { limit: request.query.limit ?? 50, total, statuses: wanted },
        links: pageLinks(request.url, page),
      };
    },
  );

  app.post(
    '/admin/media/:hex/claim',
    {
      config: { auth: 'admin' },
      preValidation: emptyBodyAsObject,
      schema: {
        tags: ['admin'],
        summary: `Claim a queued media for description: a lease of leaseSeconds (default ${defaultLeaseSeconds}, at most ${maxLeaseSeconds})`,
        params: HexParams,
        body: Type.Object(
          { leaseSeconds: Type.Optional(Type.Integer({ minimum: 10, maximum: maxLeaseSeconds })) },
          { additionalProperties: false },
        ),
        response: { 200: DocumentSchema(AdminMediaSchema) },
      },
    },
    async (request) => {
      const id = requireUuidParam(request.params.hex, 'hex');
      const row = await describeQueue.claim(id, request.body.leaseSeconds ?? defaultLeaseSeconds);
      return { data: presentAdminMedia(row) };
    },
  );

  app.get(
    '/admin/media/:hex/base64',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'The image for the describer: a JPEG of at most 2048 px, metadata stripped, base64-encoded',
        params: HexParams,
        response: {
          200: DocumentSchema(
            ResourceSchema(
              'mediaImages',
              Type.Object({ contentType: Type.String(), base64: Type.String(), byteSize: Type.Integer() }),
            ),
          ),
        },
      },
    },
    async (request) => {
      const id = requireUuidParam(request.params.hex, 'hex');
      const row = await describeQueue.requirePost(id);
      const image = await mediaVariants.read(row, 'large', 'jpeg');
      if (image === null) throw new AppError('notFound', { detail: 'the stored original is missing' });
      await describeQueue.recordImageSent(id);
      return {
        data: {
          type: 'mediaImages',
          id: row.id,
          attributes: {
            contentType: image.contentType,
            base64: image.data.toString('base64'),
            byteSize: image.data.length,
          },
        },
      };
    },
  );

  app.post(
    '/admin/media/describe',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Submit the description of a claimed media (its lease must be live)',
        body: Type.Object(
          {
            mediaId: Type.String({ description: 'UUID or 32 hex digits' }),
            description: Type.String({ minLength: 1, maxLength: maxDescriptionLength }),
            hashtags: Type.Optional(
              Type.Array(Type.String({ pattern: hashtagPattern.source.replace('^', '^#?') }), {
                maxItems: maxHashtags,
              }),
            ),
            locale: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}(-[A-Z]{2})?$' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: DocumentSchema(AdminMediaSchema) },
      },
    },
    async (request) => {
      const id = bodyMediaId(request.body.mediaId);
      const { description, hashtags, locale } = request.body;
      const row = await describeQueue.describe(id, {
        description,
        ...(hashtags !== undefined ? { hashtags } : {}),
        ...(locale !== undefined ? { locale } : {}),
      });
      return { data: presentAdminMedia(row) };
    },
  );

  app.post(
    '/admin/media/:hex/fail',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Report that a claimed media could not be described (its lease must be live)',
        params: HexParams,
        body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }),
        response: { 200: DocumentSchema(AdminMediaSchema) },
      },
    },
    async (request) => {
      const id = requireUuidParam(request.params.hex, 'hex');
      const row = await describeQueue.fail(id, request.body.reason);
      return { data: presentAdminMedia(row) };
    },
  );

  app.post(
    '/admin/jobs/describe-queue/requeue',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Put a media post back in the queue (pending), whatever its state',
        body: Type.Object(
          { mediaId: Type.String({ description: 'UUID or 32 hex digits' }) },
          { additionalProperties: false },
        ),
        response: { 200: DocumentSchema(AdminMediaSchema) },
      },
    },
    async (request) => {
      const id = bodyMediaId(request.body.mediaId);
      const row = await describeQueue.requeue(id);
      return { data: presentAdminMedia(row) };
    },
  );
}
