/** Uploads (multipart): my avatar, my cover, a media post. The module registers them where multipart is parsed. */
import { type TProperties, Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { DocumentSchema } from '../../platform/http/jsonapi.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { maxContentWarningLength } from './content-warnings.ts';
import { maxDescriptionLength } from './media.routes.ts';
import { OwnMediaSchema, presentOwnMedia } from './presenters.ts';
import type { MediaServices } from './public.ts';
import { booleanField, readUploadForm } from './upload-form.ts';

function checkedDescription(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') {
    throw new AppError('validationFailed', { source: { pointer: '/description' }, detail: 'must not be blank' });
  }
  if ([...value].length > maxDescriptionLength) {
    throw new AppError('validationFailed', {
      source: { pointer: '/description' },
      detail: `at most ${maxDescriptionLength} characters`,
    });
  }
  return value;
}

const UploadForm = (fields: TProperties) =>
  Type.Object({
    file: Type.String({ format: 'binary', description: 'The image (JPEG, PNG, WebP, AVIF, GIF, HEIC)' }),
    ...fields,
  });
const uploadErrors = [
  'fileMissing',
  'fileTooLarge',
  'imageTooLarge',
  'mediaQuotaExceeded',
  'unsupportedImage',
  'corruptImage',
  'notFound',
] as const;
const OwnMedia = { status: 201, schema: DocumentSchema(OwnMediaSchema) } as const;

export function mediaUploadRoutes({ mediaUploads }: Pick<MediaServices, 'mediaUploads'>): AnyRoute[] {
  return [
    ...(['avatar', 'cover'] as const).map((kind) =>
      route({
        method: 'POST',
        path: `/api/users/me/${kind}`,
        auth: 'user',
        summary: `Upload my ${kind} (multipart: file); replaces the previous one`,
        multipart: UploadForm({}),
        errors: [...uploadErrors],
        success: OwnMedia,
        handler: async ({ viewer, request }) => {
          const form = await readUploadForm(request, []);
          return { data: presentOwnMedia(await mediaUploads.upload(viewer.userId, kind, { data: form.file })) };
        },
      }),
    ),
    route({
      method: 'POST',
      path: '/api/users/me/media',
      auth: 'user',
      summary:
        'Upload a media post (multipart: file, optional description, locationPublic, sensitive "true"/"false" and contentWarning)',
      multipart: UploadForm({
        description: Type.Optional(Type.String({ maxLength: maxDescriptionLength })),
        locationPublic: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
        sensitive: Type.Optional(
          Type.Union([Type.Literal('true'), Type.Literal('false')], {
            description: '"true": shown behind a content warning (docs/api.md, Media: content warnings)',
          }),
        ),
        contentWarning: Type.Optional(
          Type.String({
            maxLength: maxContentWarningLength,
            description: `the warning's text, 1 to ${maxContentWarningLength} characters; only with sensitive "true"`,
          }),
        ),
      }),
      errors: [...uploadErrors],
      success: OwnMedia,
      handler: async ({ viewer, request }) => {
        const form = await readUploadForm(request, ['description', 'locationPublic', 'sensitive', 'contentWarning']);
        const description = checkedDescription(form.fields.description);
        const locationPublic = booleanField(form.fields, 'locationPublic');
        const sensitive = booleanField(form.fields, 'sensitive');
        const { contentWarning } = form.fields;
        const row = await mediaUploads.upload(viewer.userId, 'post', {
          data: form.file,
          ...(description !== undefined ? { description } : {}),
          ...(locationPublic !== undefined ? { locationPublic } : {}),
          ...(sensitive !== undefined || contentWarning !== undefined
            ? { contentWarning: { sensitive: sensitive ?? false, contentWarning } }
            : {}),
        });
        return { data: presentOwnMedia(row) };
      },
    }),
  ];
}
