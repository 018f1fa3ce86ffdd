/** GET /media/{hex}.{ext}: a media file, in the format its extension names and an optional size. */
import { Type } from 'typebox';
import type { VariantFormat, VariantSize } from '../../adapters/images/index.ts';
import { alsoAnswer } from '../../platform/http/answers.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { matchesEtag } from '../../platform/http/etags.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';
import { parseRangeHeader } from './byte-range-header.ts';
import type { MediaServices } from './public.ts';

/** A Map, not an object: the extension comes from the URL, and `.__proto__` must find nothing. */
const formatOfExtension = new Map<string, VariantFormat>([
  ['jpg', 'jpeg'],
  ['jpeg', 'jpeg'],
  ['webp', 'webp'],
  ['avif', 'avif'],
  ['png', 'png'],
]);
const cacheControl = 'public, max-age=31536000, immutable';

export function mediaFilesRoutes({ media, mediaVariants }: Pick<MediaServices, 'media' | 'mediaVariants'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/media/{hex}.{ext}',
      auth: 'none',
      summary:
        'A media file: ext picks the format (jpg, webp, avif, png), size the variant; EXIF stripped. A variant not rendered yet is 503 variantNotReady with Retry-After if not ready within a short wait',
      params: {
        hex: Type.String({ description: 'The media id: 32 hex digits or UUID' }),
        ext: Type.String({ description: 'jpg, jpeg, webp, avif or png' }),
      },
      query: {
        size: Type.Optional(
          Type.Union([Type.Literal('thumb'), Type.Literal('small'), Type.Literal('large'), Type.Literal('original')], {
            description:
              'Longest side: thumb 320, small 1080, large 2048 px; original (default) keeps the dimensions, up to 2048 x 2048 px in AVIF and 4096 x 4096 px in the other formats',
          }),
        ),
      },
      errors: ['notFound', 'rangeNotSatisfiable', 'variantNotReady'],
      success: {
        status: 200,
        mediaType: 'image/*',
        description: 'The image (Content-Type image/jpeg, image/webp, image/avif or image/png), cached for a year',
        also: { 206: 'The byte range asked for with Range', 304: 'Not modified since the ETag given in If-None-Match' },
      },
      handler: async ({ params, query, request, reply }) => {
        const { hex, ext } = params;
        const id = parseUuidOrHex(hex);
        const format = formatOfExtension.get(ext.toLowerCase());
        if (id === null || format === undefined) throw new AppError('notFound');
        const size: VariantSize = query.size ?? 'original';
        const row = await media.findServableMedia(id);
        if (row === null) throw new AppError('notFound');

        const etag = mediaVariants.etagOf(row, size, format);
        const validators = { ETag: etag, 'Cache-Control': cacheControl };
        if (matchesEtag(request.headers['if-none-match'], etag)) {
          reply.headers(validators);
          return alsoAnswer(304);
        }

        // The client closing the connection (not the answer ending) gives up its hold on a queued render.
        const closed = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished) closed.abort();
        };
        reply.raw.once('close', onClose);
        let variant: Awaited<ReturnType<typeof mediaVariants.ensure>>;
        try {
          variant = await mediaVariants.ensure(row, size, format, { ip: request.ip, closed: closed.signal });
        } finally {
          reply.raw.off('close', onClose);
        }
        if (variant === null) throw new AppError('notFound');
        const fileSize = variant.info.size;
        const ifRange = request.headers['if-range'] as string | undefined;
        const honourRange = ifRange === undefined || ifRange.trim() === etag;
        const answer = honourRange ? parseRangeHeader(request.headers.range, fileSize) : ({ kind: 'whole' } as const);
        if (answer.kind === 'unsatisfiable') {
          throw new AppError('rangeNotSatisfiable', {
            source: { header: 'Range' },
            headers: { 'Content-Range': `bytes */${fileSize}` },
          });
        }
        const range = answer.kind === 'range' ? answer.range : undefined;
        const stored = await mediaVariants.open(variant.key, range);
        if (stored === null) throw new AppError('notFound');
        reply
          .headers(validators)
          .header('Accept-Ranges', 'bytes')
          .header('Content-Type', variant.contentType)
          .header('X-Content-Type-Options', 'nosniff');
        if (stored.range) {
          reply
            .header('Content-Range', `bytes ${stored.range.start}-${stored.range.end}/${stored.size}`)
            .header('Content-Length', String(stored.range.end - stored.range.start + 1));
          return alsoAnswer(206, stored.stream);
        }
        reply.header('Content-Length', String(stored.size));
        return stored.stream;
      },
    }),
  ];
}
