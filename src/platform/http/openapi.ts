/**
 * OpenAPI 3.1 generated from the route declarations (/api/openapi.json) and a reference page
 * (/api/docs). Each declared route documents its success answer with its media type, one response per
 * error status it can answer (the error document, the codes, an example), its request body (JSON,
 * JSON:API or multipart) and its security; resource schemas become named components.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TSchema } from 'typebox';
import { type ErrorCode, errorCatalogue } from './error-catalogue.ts';
import { ErrorDocumentSchema, jsonApiMediaType } from './jsonapi.ts';
import { hoistComponents } from './openapi-components.ts';
import type { Success } from './route.ts';
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
  { name: 'geography', description: 'Countries, UN M49 regions and subregions, and cities (GeoNames), with search' },
  { name: 'discovery', description: 'Media by place: nearby, recommended around a centre, trending, and the map' },
  { name: 'hashtags', description: 'Hashtag autocomplete, trends and related hashtags' },
  { name: 'topics', description: 'The catalogue of travel topics and the ones I follow' },
  { name: 'social-feeds', description: 'Shareable feeds: named selections of a user’s public media' },
  {
    name: 'admin',
    description: "The operators' API (ADMIN_API_TOKEN): moderation, description queue, search index, jobs",
  },
];

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

/** One documented response per error status, listing the codes, with an example of the first. */
function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalogue[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const first = list[0]!;
    responses[String(status)] = {
      description: `Error: ${list.map((code) => `\`${code}\``).join(', ')} (see docs/api.md, Errors)`,
      content: {
        [jsonApiMediaType]: {
          schema: errorDocumentRef,
          example: { errors: [{ status: String(status), code: first, title: first }] },
        },
      },
    };
  }
  return responses;
}

function successResponses(success: Success): Record<string, unknown> {
  const description = success.description ?? statusDescriptions[success.status] ?? 'Success';
  const main =
    success.mediaType !== undefined
      ? { description, content: { [success.mediaType]: { schema: { type: 'string', format: 'binary' } } } }
      : success.schema !== undefined
        ? { description, content: { [jsonApiMediaType]: { schema: success.schema } } }
        : { description };
  const responses: Record<string, unknown> = { [String(success.status)]: main };
  for (const [status, text] of Object.entries(success.also ?? {})) responses[status] = { description: text };
  return responses;
}

interface RouteDoc {
  schema: Record<string, unknown> & { body?: TSchema };
  config: { auth?: RouteAuth; errors?: ErrorCode[]; success?: Success; multipart?: TSchema };
}

/** The documented form of one route's schema (validation keeps the route's own). */
export function documentRoute({ schema, config }: RouteDoc): Record<string, unknown> {
  if (config.success === undefined) return schema;
  const documented: Record<string, unknown> = { ...schema };
  const auth = whoMayCall[config.auth ?? 'none'];
  documented.description = typeof schema.description === 'string' ? `${schema.description}\n\n${auth}` : auth;
  documented.response = { ...successResponses(config.success), ...errorResponses(config.errors ?? []) };
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
        },
      },
    },
    transform: ({ schema, url, route }) => ({
      schema: documentRoute({
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
