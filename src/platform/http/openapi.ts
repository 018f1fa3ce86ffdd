/**
 * OpenAPI 3.1 generated from the route declarations (/api/openapi.json) and a reference page
 * (/api/docs). Each declared route documents its success answer with its media type, one response per
 * error status it can answer (the error document, the codes, an example), its request body (JSON,
 * JSON:API or multipart) and its security; resource schemas become named components.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TSchema } from 'typebox';
import { isApiPath, jsonBodyMediaType } from './content-types.ts';
import { type ErrorCode, errorCatalogue } from './error-catalogue.ts';
import { ErrorDocumentSchema, jsonApiMediaType } from './jsonapi.ts';
import { hoistComponents } from './openapi-components.ts';
import { type Success, successHasBody } from './route.ts';
import type { App, RouteAuth } from './types.ts';

/** Tags of the document, in the order the reference page shows them. */
export const openApiTags = [
  { name: 'system', description: 'Liveness and the locales the service speaks' },
  { name: 'auth', description: 'Registration, sign-in, sessions and the e-mailed flows' },
  { name: 'account', description: "The signed-in user's names, password, settings, address and sponsorship" },
  { name: 'users', description: 'Finding other users' },
  { name: 'follows', description: 'Who follows whom' },
  { name: 'notifications', description: 'The in-app feed, its counters and the notification preferences' },
  { name: 'badges', description: 'Badges, levels and titles' },
  { name: 'media', description: 'Uploads, media files and their variants, descriptions, lists' },
  { name: 'reactions', description: 'Likes and dislikes, and their lists' },
  { name: 'bookmarks', description: 'Bookmarks and bookmark collections' },
  { name: 'filters', description: 'Keyword filters: words that hide, or warn about, what I read' },
  { name: 'geography', description: 'Countries, UN M49 regions and subregions, and cities (GeoNames), with search' },
  { name: 'discovery', description: 'Media by place: nearby, recommended around a centre, trending, and the map' },
  { name: 'hashtags', description: 'Hashtag autocomplete, trends and related hashtags' },
  { name: 'topics', description: 'The catalogue of travel topics and the ones I follow' },
  { name: 'social-feeds', description: 'Shareable feeds: named selections of a user’s public media' },
  { name: 'trips', description: 'Trips: my placed photos grouped by place and time, their routes, and my edits' },
  { name: 'share-links', description: 'Secret links to a post or a collection that open without an account' },
  { name: 'syndication', description: 'RSS and Atom feeds of a profile or a hashtag, and oEmbed' },
  { name: 'comments', description: 'Comments on media, their replies and threads' },
  { name: 'reports', description: 'Reporting a media, a comment or a user to the moderators' },
  {
    name: 'appeals',
    description: 'The moderation decisions about me, and my appeals of them (once per decision, within 30 days)',
  },
  { name: 'catalogue', description: 'Brands, establishments and their offers' },
  {
    name: 'tracking',
    description: "Clicks on offers, the partners' conversions and the commissions creators earn from them",
  },
  {
    name: 'federation',
    description: 'The posts of the fediverse accounts I follow, and my likes and replies of them',
  },
  { name: 'newsletter', description: 'The double opt-in newsletter: subscription, confirmation, unsubscription' },
  {
    name: 'admin',
    description: "The operators' API (ADMIN_API_TOKEN): moderation, description queue, search index, jobs",
  },
  {
    name: 'web',
    description: 'The server-rendered HTML pages, their assets and their cookie sign-in (not part of the API)',
  },
];

/** On an operation whose success answer has no body when the client asks for JSON (`Success.emptyForJson`). */
export const emptyForJsonExtension = 'x-empty-for-json';

const errorDocumentRef = { $ref: '#/components/schemas/ErrorDocument' };

const statusDescriptions: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: the work goes on after the answer',
  204: 'Done; no body',
  206: 'Partial content',
};

const whoMayCall: Record<RouteAuth, string> = {
  none: 'Public: no credential.',
  optional: 'Public; a user session token, when sent, identifies the viewer.',
  user: 'Needs a user session token (Authorization: Bearer).',
  admin: 'Needs the admin token (ADMIN_API_TOKEN).',
};

const htmlPage = { schema: { type: 'string' } };

/**
 * One documented response per error status, listing the codes, with an example of the first: a JSON:API
 * error document, or outside /api and /admin an HTML page unless the client asks for JSON.
 */
function errorResponses(path: string, codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalogue[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const [first] = list;
    if (first === undefined) continue;
    const errorDocument = {
      schema: errorDocumentRef,
      example: { errors: [{ status: String(status), code: first, title: first }] },
    };
    responses[String(status)] = {
      description: `Error: ${list.map((code) => `\`${code}\``).join(', ')} (see docs/api.md, Errors)`,
      content: isApiPath(path)
        ? { [jsonApiMediaType]: errorDocument }
        : { 'text/html': htmlPage, [jsonApiMediaType]: errorDocument },
    };
  }
  return responses;
}

/** The body of a success answer by media type; undefined when it has none. */
function successContent(path: string, success: Success): Record<string, unknown> | undefined {
  if (success.schema !== undefined) return { [jsonBodyMediaType(path)]: { schema: success.schema } };
  if (success.mediaType === undefined) return undefined;
  const types: readonly string[] = typeof success.mediaType === 'string' ? [success.mediaType] : success.mediaType;
  return Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]));
}

/** The main success answer and those beside it (`also`), each with its body, or none (`type: 'null'`). */
function successResponses(path: string, success: Success): Record<string, unknown> {
  const content = successContent(path, success);
  const response = (status: number, description: string) =>
    content !== undefined && successHasBody(success, status) ? { description, content } : { description, type: 'null' };
  const responses: Record<string, unknown> = {
    [String(success.status)]: response(
      success.status,
      success.description ?? statusDescriptions[success.status] ?? 'Success',
    ),
  };
  for (const [status, text] of Object.entries(success.also ?? {})) responses[status] = response(Number(status), text);
  return responses;
}

interface RouteDoc {
  schema: Record<string, unknown> & { body?: TSchema };
  config: { auth?: RouteAuth; errors?: ErrorCode[]; success?: Success; multipart?: TSchema };
}

/** The documented form of one route's schema (validation keeps the route's own). */
export function documentRoute(path: string, { schema, config }: RouteDoc): Record<string, unknown> {
  if (config.success === undefined) return schema;
  const documented: Record<string, unknown> = { ...schema };
  const auth = whoMayCall[config.auth ?? 'none'];
  documented.description = typeof schema.description === 'string' ? `${schema.description}\n\n${auth}` : auth;
  documented.response = { ...successResponses(path, config.success), ...errorResponses(path, config.errors ?? []) };
  if (config.success.emptyForJson) documented[emptyForJsonExtension] = true;
  if (config.multipart) {
    documented.body = config.multipart;
    documented.consumes = ['multipart/form-data'];
  } else if (schema.body) {
    documented.consumes = ['application/json', jsonApiMediaType];
  }
  // A public route that reads an optional viewer: no credential, or a session token.
  if (config.auth === 'optional') documented.security = [{}, { sessionToken: [] }];
  if (config.auth === 'none') documented.security = [];
  return documented;
}

export async function registerOpenApi(app: App, publicUrl: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Travel Media Service API',
        version: '0.1.0',
        description:
          'JSON:API documents under /api (user session tokens) and /admin (the admin token). See docs/api.md for the conventions.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: publicUrl }],
      tags: openApiTags,
      components: {
        securitySchemes: {
          sessionToken: { type: 'http', scheme: 'bearer', description: 'A user session token from /api/auth/login' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_API_TOKEN' },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'tm_session',
            description: 'The web sign-in cookie (POST /login); read only by the routes that name it',
          },
        },
      },
    },
    transform: ({ schema, url, route }) => ({
      schema: documentRoute(url, {
        schema: (schema ?? {}) as RouteDoc['schema'],
        config: (route.config ?? {}) as RouteDoc['config'],
      }) as typeof schema,
      url,
    }),
    transformObject: (documentObject) => {
      const spec = (documentObject as { openapiObject: Record<string, unknown> }).openapiObject;
      return hoistComponents(spec, { ErrorDocument: ErrorDocumentSchema });
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/api/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json').send(app.swagger()),
  );
}
