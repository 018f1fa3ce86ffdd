/** The description queue's admin API, worked by an outside worker. Every call is audited (in the service). */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema, DocumentSchema, ResourceSchema } from '../../platform/http/jsonapi.ts';
import { pageDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';
import { hashtagPattern, maxHashtags } from '../../platform/text/hashtags.ts';
import { defaultLeaseSeconds, maxLeaseSeconds } from './admin/describe-queue.service.ts';
import { AdminMediaSchema, presentAdminMedia } from './admin/media-admin.presenters.ts';
import { emptyBodyAsObject } from './admin/optional-body.ts';
import { describeQueueKeyset } from './media.repository.ts';
import { maxDescriptionLength } from './media.routes.ts';
import type { MediaServices } from './public.ts';
import type { DescribeStatus } from './tables.ts';

const params = { hex: idParam('32 hex digits or UUID') };
const statuses = ['pending', 'claimed', 'described', 'failed', 'skipped'] as const;
const OneMedia = { status: 200, schema: DocumentSchema(AdminMediaSchema) } as const;
const MediaIdField = Type.String({ description: 'UUID or 32 hex digits' });

function bodyMediaId(value: string): string {
  const id = parseUuidOrHex(value);
  if (id === null) throw new AppError('invalidId', { source: { pointer: '/mediaId' } });
  return id;
}

export function describeQueueAdminRoutes({
  describeQueue,
  mediaVariants,
}: Pick<MediaServices, 'describeQueue' | 'mediaVariants'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/admin/jobs/describe-queue',
      auth: 'admin',
      summary: 'The description queue, newest first: pending and claimed items unless status says otherwise',
      page: { keyset: describeQueueKeyset, defaultLimit: 50, maxLimit: 200 },
      query: { status: Type.Optional(Type.Union(statuses.map((status) => Type.Literal(status)))) },
      success: {
        status: 200,
        schema: CollectionSchema(AdminMediaSchema, { total: Type.Integer(), statuses: Type.Array(Type.String()) }),
      },
      handler: async ({ query, page, links }) => {
        const wanted: DescribeStatus[] = query.status ? [query.status] : ['pending', 'claimed'];
        const { page: result, total } = await describeQueue.list(wanted, page);
        return pageDocument(result, { page, links }, presentAdminMedia, { total, statuses: wanted });
      },
    }),
    route({
      method: 'POST',
      path: '/admin/media/{hex}/claim',
      auth: 'admin',
      summary: `Claim a queued media for description: a lease of leaseSeconds (default ${defaultLeaseSeconds}, at most ${maxLeaseSeconds})`,
      preValidation: emptyBodyAsObject,
      params,
      body: Type.Object(
        { leaseSeconds: Type.Optional(Type.Integer({ minimum: 10, maximum: maxLeaseSeconds })) },
        { additionalProperties: false },
      ),
      errors: ['notFound', 'mediaAlreadyClaimed', 'mediaNotInQueue'],
      success: OneMedia,
      handler: async ({ params, body }) => ({
        data: presentAdminMedia(await describeQueue.claim(params.hex, body.leaseSeconds ?? defaultLeaseSeconds)),
      }),
    }),
    route({
      method: 'GET',
      path: '/admin/media/{hex}/base64',
      auth: 'admin',
      summary: 'The image for the describer: a JPEG of at most 2048 px, metadata stripped, base64-encoded',
      params,
      errors: ['notFound'],
      success: {
        status: 200,
        schema: DocumentSchema(
          ResourceSchema(
            'mediaImages',
            Type.Object({ contentType: Type.String(), base64: Type.String(), byteSize: Type.Integer() }),
          ),
        ),
      },
      handler: async ({ params }) => {
        const row = await describeQueue.requirePost(params.hex);
        const image = await mediaVariants.read(row, 'large', 'jpeg');
        if (image === null) throw new AppError('notFound', { detail: 'the stored original is missing' });
        await describeQueue.recordImageSent(params.hex);
        const attributes = {
          contentType: image.contentType,
          base64: image.data.toString('base64'),
          byteSize: image.data.length,
        };
        return { data: { type: 'mediaImages', id: row.id, attributes } };
      },
    }),
    route({
      method: 'POST',
      path: '/admin/media/describe',
      auth: 'admin',
      summary: 'Submit the description of a claimed media (its lease must be live)',
      body: Type.Object(
        {
          mediaId: MediaIdField,
          description: Type.String({ minLength: 1, maxLength: maxDescriptionLength }),
          hashtags: Type.Optional(
            Type.Array(Type.String({ pattern: hashtagPattern.source.replace('^', '^#?') }), { maxItems: maxHashtags }),
          ),
          locale: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}(-[A-Z]{2})?$' })),
        },
        { additionalProperties: false },
      ),
      errors: ['invalidId', 'notFound', 'mediaNotClaimed'],
      success: OneMedia,
      handler: async ({ body }) => {
        const { description, hashtags, locale } = body;
        const row = await describeQueue.describe(bodyMediaId(body.mediaId), {
          description,
          ...(hashtags !== undefined ? { hashtags } : {}),
          ...(locale !== undefined ? { locale } : {}),
        });
        return { data: presentAdminMedia(row) };
      },
    }),
    route({
      method: 'POST',
      path: '/admin/media/{hex}/fail',
      auth: 'admin',
      summary: 'Report that a claimed media could not be described (its lease must be live)',
      params,
      body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }),
      errors: ['notFound', 'mediaNotClaimed'],
      success: OneMedia,
      handler: async ({ params, body }) => ({
        data: presentAdminMedia(await describeQueue.fail(params.hex, body.reason)),
      }),
    }),
    route({
      method: 'POST',
      path: '/admin/jobs/describe-queue/requeue',
      auth: 'admin',
      summary: 'Put a media post back in the queue (pending), whatever its state',
      body: Type.Object({ mediaId: MediaIdField }, { additionalProperties: false }),
      errors: ['invalidId', 'notFound'],
      success: OneMedia,
      handler: async ({ body }) => ({
        data: presentAdminMedia(await describeQueue.requeue(bodyMediaId(body.mediaId))),
      }),
    }),
  ];
}
