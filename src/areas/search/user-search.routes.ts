/** Public user search: GET /api/users/search?q=, answered from the search index. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { CollectionSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { PublicUserSchema, presentPublicUser } from '../accounts/public.ts';
import type { SearchServices } from './public.ts';
import { userSearchKeyset } from './user-search.repository.ts';

export function userSearchRoutes({ userSearch }: Pick<SearchServices, 'userSearch'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/users/search',
      auth: 'optional',
      description: 'Public; a valid token leaves out the users the viewer blocks or is blocked by.',
      summary: 'Find users by username or nickname: exact and prefix first, then full text, then fuzzy',
      query: { q: Type.String({ minLength: 1, maxLength: 50, description: '1 to 50 characters' }) },
      page: { keyset: userSearchKeyset, maxLimit: 50 },
      success: { status: 200, schema: CollectionSchema(PublicUserSchema, { q: Type.String() }) },
      handler: async ({ query, page, links, viewer }) => {
        const q = query.q.trim();
        if (q === '')
          throw new AppError('invalidQueryParameter', { source: { parameter: 'q' }, detail: 'must not be blank' });
        const rows = await userSearch.search(q, page, viewer?.userId ?? null);
        return listDocument(rows, { page, links }, userSearchKeyset, (row) => presentPublicUser(row.user), { q });
      },
    }),
  ];
}
