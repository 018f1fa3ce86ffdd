/** GET /assets/{file}: the pages' bundled scripts, stylesheets, Leaflet's images and the map's shapes. */
import { Type } from 'typebox';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { type AnyRoute, route } from '../../../platform/http/route.ts';
import { assetContentTypes, gzippedBody, loadClientAssets } from './client-assets.ts';

/** The file's name holds the hash of its content: it never changes under this URL. */
export const immutableCacheControl = 'public, max-age=31536000, immutable';
/** Below this size, or for already compressed types, gzip is not worth it. */
const gzipMinimum = 1024;
const compressible = /^(text\/|application\/json|image\/svg)/;

export function assetsRoutes(): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/assets/{file}',
      auth: 'none',
      summary:
        "A client asset of the web pages (script, stylesheet, image, the map's country shapes), named <name>.<hash>.<ext> and cached for a year",
      description:
        'The pages name these files themselves (their URLs change with their content); they are not part of the API. Sent gzipped to clients that accept it.',
      params: { file: Type.String({ maxLength: 100, description: 'The file name, e.g. explorer.ASRHQSRT.js' }) },
      errors: ['notFound'],
      success: {
        status: 200,
        mediaType: assetContentTypes,
        description: 'The file, with the Content-Type of its kind',
      },
      handler: async ({ params, request, reply }) => {
        const assets = await loadClientAssets();
        const asset = assets.files.get(params.file);
        if (asset === undefined) throw new AppError('notFound');
        reply.header('Cache-Control', immutableCacheControl).type(asset.contentType);
        if (asset.body.length < gzipMinimum || !compressible.test(asset.contentType)) return reply.send(asset.body);
        reply.header('Vary', 'Accept-Encoding');
        const accepts = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
        if (!accepts) return reply.send(asset.body);
        return reply.header('Content-Encoding', 'gzip').send(gzippedBody(asset));
      },
    }),
  ];
}
