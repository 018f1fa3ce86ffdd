/**
 * Media types, as JSON:API 1.1 asks of a server:
 * - request bodies are JSON (`application/json`) or JSON:API (`application/vnd.api+json`, with no
 *   parameter but `ext` or `profile`, else 415); anything else (text/plain included) is 415, but on
 *   the upload routes, which take multipart/form-data;
 * - an `Accept` that lists the JSON:API type only with other parameters is 406;
 * - JSON:API documents go out as `application/vnd.api+json` exactly, with no parameter;
 * - answers carry `Content-Language` (the negotiated locale) with `Vary: Accept-Language`, and
 *   `X-Content-Type-Options: nosniff`.
 */
import { AppError } from './error-catalogue.ts';
import { jsonApiMediaType } from './jsonapi.ts';
import type { App } from './types.ts';

/** JSON that is not JSON:API: the OpenAPI document, and oEmbed (whose consumers read plain JSON). */
const plainJsonPaths = new Set(['/api/openapi.json', '/api/oembed']);
const allowedParameters = new Set(['ext', 'profile']);

interface MediaRange {
  type: string;
  parameters: string[];
}

/** `type/subtype; a=1; b=2` -> the type and its parameter names (q excluded), lower-cased. */
function parseMediaRange(text: string): MediaRange {
  const [type = '', ...parameters] = text.split(';').map((part) => part.trim().toLowerCase());
  return {
    type,
    parameters: parameters
      .map((parameter) => {
        const [name = ''] = parameter.split('=');
        return name.trim();
      })
      .filter((name) => name !== 'q'),
  };
}

const modifiedByOthers = (range: MediaRange) => range.parameters.some((name) => !allowedParameters.has(name));

function checkContentType(header: string | undefined): void {
  if (header === undefined) return;
  const range = parseMediaRange(header);
  if (range.type === jsonApiMediaType && modifiedByOthers(range)) {
    throw new AppError('unsupportedMediaType', {
      source: { header: 'Content-Type' },
      detail: 'the JSON:API media type takes no parameter but ext and profile',
    });
  }
}

/** Whether a header names the JSON:API media type at all (media types are case-insensitive). */
const namesJsonApi = (header: string) => /application\/vnd\.api\+json/i.test(header);

function checkAccept(header: string | undefined): void {
  // Nothing to check when the JSON:API type is not asked for, or asked for bare (what clients send).
  if (header === undefined || header === jsonApiMediaType || !namesJsonApi(header)) return;
  const jsonApi = header
    .split(',')
    .map(parseMediaRange)
    .filter((range) => range.type === jsonApiMediaType);
  if (jsonApi.length > 0 && jsonApi.every(modifiedByOthers)) {
    throw new AppError('notAcceptable', {
      source: { header: 'Accept' },
      detail: 'every JSON:API media type in Accept has a parameter other than ext and profile',
    });
  }
}

/** The path of a request's URL, without its query string (no array made, as split would). */
const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

export const isApiPath = (path: string) => path.startsWith('/api/') || path.startsWith('/admin/');

/** The media type a JSON body goes out with on this path (the OpenAPI document says the same). */
export const jsonBodyMediaType = (path: string) =>
  isApiPath(path) && !plainJsonPaths.has(path) ? jsonApiMediaType : 'application/json';

export function registerContentTypes(app: App) {
  // Only JSON is read from a body (multipart is added on the upload routes alone).
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(jsonApiMediaType, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  // Callback hooks (a throw is Fastify's error path, as a rejection would be): see app.ts.
  app.addHook('onRequest', (request, _reply, done) => {
    if (isApiPath(request.url)) {
      checkContentType(request.headers['content-type']);
      checkAccept(request.headers.accept);
    }
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    // Browsers must never guess another type than the one declared (an upload served as HTML, say).
    reply.header('X-Content-Type-Options', 'nosniff');
    const type = reply.getHeader('content-type');
    const path = pathOf(request.url);
    if (typeof type !== 'string' || path.startsWith('/media/')) {
      done(null, payload);
      return;
    }
    if (
      (type.startsWith('application/json') || type.startsWith(jsonApiMediaType)) &&
      jsonBodyMediaType(path) === jsonApiMediaType
    ) {
      reply.header('content-type', jsonApiMediaType);
    }
    reply.header('Content-Language', request.locale);
    const vary = reply.getHeader('vary');
    if (
      !String(vary ?? '')
        .toLowerCase()
        .includes('accept-language')
    ) {
      reply.header('Vary', vary ? `${vary}, Accept-Language` : 'Accept-Language');
    }
    done(null, payload);
  });
}
