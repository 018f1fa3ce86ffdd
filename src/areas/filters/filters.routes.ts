/** My keyword filters: /api/users/me/filters (an extension of the interface, after Mastodon's v2 filters). */
import { type TSchema, Type } from 'typebox';
import { CollectionSchema, DocumentSchema, Nullable } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { filterActions, filterContexts, filterLimits } from './filter-rules.ts';
import { filtersKeyset } from './filters.repository.ts';
import { FilterSchema, presentFilter } from './presenters.ts';
import type { FiltersServices } from './public.ts';

const base = '/api/users/me/filters';
const params = { id: idParam('The filter UUID', { hex: false }) };
const OneFilter = DocumentSchema(FilterSchema);

const oneOf = (values: readonly string[], description: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { description },
  );

const fields = {
  title: Type.String({
    minLength: 1,
    maxLength: filterLimits.titleMaxLength,
    description: `1 to ${filterLimits.titleMaxLength} characters once trimmed`,
  }),
  context: Type.Array(oneOf(filterContexts, 'feeds (media in feeds and lists), comments or notifications'), {
    minItems: 1,
    maxItems: filterContexts.length,
    description: 'where the filter applies; each at most once',
  }),
  action: oneOf(filterActions, 'warn: the item carries meta.filtered; hide: the item is left out'),
  expiresAt: Nullable(
    Type.String({ format: 'date-time', description: 'RFC 3339, in the future; null or absent: never' }),
  ),
  keywords: Type.Array(
    Type.Object(
      {
        keyword: Type.String({
          minLength: 1,
          maxLength: filterLimits.keywordMaxLength,
          description: `a word or phrase, 1 to ${filterLimits.keywordMaxLength} characters once trimmed; case and accents never matter`,
        }),
        wholeWord: Type.Optional(
          Type.Boolean({ description: 'true (default): only as a whole word; false: anywhere in a word' }),
        ),
      },
      { additionalProperties: false },
    ),
    {
      minItems: 1,
      maxItems: filterLimits.keywordsPerFilter,
      description: `1 to ${filterLimits.keywordsPerFilter}; on PATCH the list given replaces the filter's keywords`,
    },
  ),
};
const optional = <T extends Record<string, TSchema>>(schemas: T) =>
  Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, Type.Optional(schema)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

/** Writes per hour: per IP, then per signed-in user (docs/api.md, Keyword filters). */
export const filterRateLimits = [perIp('filter-write', 300, 3600), perUser('filter-write', 100, 3600)];

export function filtersRoutes({ filters }: Pick<FiltersServices, 'filters'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      summary: 'My keyword filters, newest first (expired ones included, with their expiresAt)',
      page: { keyset: filtersKeyset },
      success: { status: 200, schema: CollectionSchema(FilterSchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(await filters.list(viewer.userId, page), { page, links }, filtersKeyset, presentFilter),
    }),
    route({
      method: 'POST',
      path: base,
      auth: 'user',
      summary: `Create a keyword filter (at most ${filterLimits.filtersPerUser} per user)`,
      body: Type.Object(
        {
          title: fields.title,
          context: fields.context,
          action: fields.action,
          expiresAt: Type.Optional(fields.expiresAt),
          keywords: fields.keywords,
        },
        { additionalProperties: false },
      ),
      errors: ['filterLimitReached'],
      rateLimit: filterRateLimits,
      success: { status: 201, schema: OneFilter },
      handler: async ({ viewer, body }) => ({ data: presentFilter(await filters.create(viewer.userId, body)) }),
    }),
    route({
      method: 'GET',
      path: `${base}/{id}`,
      auth: 'user',
      summary: 'One of my keyword filters',
      params,
      errors: ['notFound'],
      success: { status: 200, schema: OneFilter },
      handler: async ({ viewer, params }) => ({ data: presentFilter(await filters.get(viewer.userId, params.id)) }),
    }),
    route({
      method: 'PATCH',
      path: `${base}/{id}`,
      auth: 'user',
      summary: 'Change one of my keyword filters (the fields given; keywords replace the list)',
      params,
      body: Type.Object(optional(fields), { additionalProperties: false }),
      errors: ['notFound'],
      rateLimit: filterRateLimits,
      success: { status: 200, schema: OneFilter },
      handler: async ({ viewer, params, body }) => ({
        data: presentFilter(await filters.update(viewer.userId, params.id, body)),
      }),
    }),
    route({
      method: 'DELETE',
      path: `${base}/{id}`,
      auth: 'user',
      summary: 'Delete one of my keyword filters',
      params,
      errors: ['notFound'],
      rateLimit: filterRateLimits,
      success: { status: 204 },
      handler: ({ viewer, params }) => filters.delete(viewer.userId, params.id),
    }),
  ];
}
