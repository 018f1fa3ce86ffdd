/** POST /admin/cache/purge: empty in-process caches here and on every other instance (audited). */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { DocumentSchema, ResourceSchema, resource } from '../../platform/http/jsonapi.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import type { Platform } from '../../platform/modules/area-module.ts';

const CachePurgeSchema = ResourceSchema(
  'cachePurges',
  Type.Object({
    scope: Type.Union([Type.String(), Type.Null()], { description: 'The scope asked for; null: every cache' }),
    purged: Type.Array(
      Type.Object({
        name: Type.String(),
        entries: Type.Integer({ description: 'Entries this instance held when it emptied the cache' }),
      }),
    ),
  }),
  undefined,
  'CachePurge',
);

export function cacheAdminRoutes({ caches, audit }: Pick<Platform, 'caches' | 'audit'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/admin/cache/purge',
      auth: 'admin',
      summary: 'Empty the in-process caches of a scope (a cache name or an area), or all, on every instance',
      preValidation: async (request) => {
        // No body at all means "every cache", as an empty object does.
        if (request.body === undefined || request.body === null) request.body = {};
      },
      body: Type.Object(
        { scope: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
        { additionalProperties: false },
      ),
      success: { status: 200, schema: DocumentSchema(CachePurgeSchema) },
      handler: async ({ body }) => {
        const scope = body.scope ?? null;
        if (scope !== null && caches.matching(scope).length === 0) {
          throw new AppError('validationFailed', {
            source: { pointer: '/scope' },
            detail: `unknown cache scope; valid scopes: ${caches.scopes().join(', ')}`,
            meta: { validScopes: caches.scopes() },
          });
        }
        const purged = await caches.purge(scope);
        await audit.record({
          actor: 'admin',
          action: 'cache.purge',
          targetType: 'cache',
          ...(scope !== null ? { targetId: scope } : {}),
          payload: { scope, purged },
        });
        return { data: resource('cachePurges', scope ?? '*', { scope, purged }) };
      },
    }),
  ];
}
