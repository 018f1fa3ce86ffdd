/** Appeals for operators: the list and the outcome. Audited in the service. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, Nullable, StringEnum } from '../../platform/http/jsonapi.ts';
import { pageDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { maxResponseLength } from './admin/appeal-review.service.ts';
import { adminAppealsKeyset } from './appeals.repository.ts';
import { AdminAppealSchema, presentAdminAppeal } from './presenters.ts';
import type { AppealsServices } from './public.ts';
import { appealOutcomes, appealStatuses } from './tables.ts';

export function appealsAdminRoutes({ appealReview }: Pick<AppealsServices, 'appealReview'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/admin/appeals',
      auth: 'admin',
      summary: 'Appeals, newest first, whole or by status, each with the decision it contests',
      page: { keyset: adminAppealsKeyset, defaultLimit: 50, maxLimit: 200 },
      query: { status: Type.Optional(StringEnum(appealStatuses)) },
      success: {
        status: 200,
        schema: CollectionSchema(AdminAppealSchema, {
          total: Type.Integer({ description: 'Appeals matching the filter' }),
        }),
      },
      handler: async ({ query, page, links }) => {
        const { page: result, total } = await appealReview.list(query.status, page);
        return pageDocument(result, { page, links }, presentAdminAppeal, { total });
      },
    }),
    route({
      method: 'PATCH',
      path: '/admin/appeals/{id}',
      auth: 'admin',
      summary:
        'Decide an appeal: upheld, or reversed, which undoes the decision in the same transaction; the user is mailed the outcome',
      params: { id: idParam('The appeal UUID', { hex: false }) },
      body: Type.Object(
        {
          outcome: StringEnum(appealOutcomes),
          response: Type.Optional(
            Nullable(
              Type.String({
                maxLength: maxResponseLength * 2,
                description: `The moderator's answer, told to the user: 1 to ${maxResponseLength} characters`,
              }),
            ),
          ),
        },
        { additionalProperties: false },
      ),
      errors: ['notFound', 'appealAlreadyDecided', 'decisionNotReversible'],
      success: {
        status: 200,
        schema: DocumentSchema(AdminAppealSchema, {
          meta: Type.Object({
            undone: Type.Boolean({ description: 'The reversal undid the action (false: nothing was left to undo)' }),
          }),
        }),
      },
      handler: async ({ params, body }) => {
        const { undone, ...decided } = await appealReview.decide(params.id, body);
        return { data: presentAdminAppeal(decided), meta: { undone } };
      },
    }),
  ];
}
