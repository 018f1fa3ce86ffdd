/** Public user search: GET /api/users/search?q=. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema } from '../../platform/http/jsonapi.ts';
import { pageLinks, pageOf, pageQuerySchema, pageRequest } from '../../platform/http/pagination.ts';
import type { App } from '../../platform/http/types.ts';
import type { AccountsServices } from './accounts.module.ts';
import { PublicUserSchema, presentPublicUser } from './presenters.ts';

export function userSearchRoutes(app: App, { directory }: AccountsServices) {
  app.get(
    '/api/users/search',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['users'],
        summary: 'Find users by username or nickname: prefix and fuzzy match, best first',
        querystring: Type.Object(
          {
            q: Type.String({ minLength: 1, maxLength: 50, description: '1 to 50 characters' }),
            ...pageQuerySchema(20, 50),
          },
          { additionalProperties: false },
        ),
        response: { 200: CollectionSchema(PublicUserSchema, { q: Type.String() }) },
      },
    },
    async (request) => {
      const q = request.query.q.trim();
      if (q === '')
        throw new AppError('invalidQueryParameter', { source: { parameter: 'q' }, detail: 'must not be blank' });
      const page = pageRequest(request.query, ['number', 'uuid']);
      const rows = await directory.search(q, page);
      const result = pageOf(rows, page, (row) => [row.score, row.user.id]);
      return {
        data: result.items.map((row) => presentPublicUser(row.user)),
        meta: { limit: page.limit, q },
        links: pageLinks(request.url, result),
      };
    },
  );
}
