/**
 * Request bodies: plain JSON and JSON:API's media type are both parsed as JSON. Responses of /api and
 * /admin are JSON:API documents, so their JSON gets `application/vnd.api+json`. Every answer carries
 * `X-Content-Type-Options: nosniff`.
 */
import { jsonApiMediaType } from './jsonapi.ts';
import type { App } from './types.ts';

const plainJsonPaths = new Set(['/api/openapi.json']);

export function registerContentTypes(app: App) {
  app.addContentTypeParser(jsonApiMediaType, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.addHook('onSend', async (request, reply, payload) => {
    // Browsers must never guess another type than the one declared (an upload served as HTML, say).
    reply.header('X-Content-Type-Options', 'nosniff');
    const type = reply.getHeader('content-type');
    const path = request.url.split('?')[0] ?? '';
    if (
      typeof type === 'string' &&
      type.startsWith('application/json') &&
      (path.startsWith('/api/') || path.startsWith('/admin/')) &&
      !plainJsonPaths.has(path)
    ) {
      reply.header('content-type', jsonApiMediaType);
    }
    return payload;
  });
}
