/**
 * The users' side of appeals: their moderation decisions, their appeals, an appeal by a signed-in
 * user, and one by the single-use link mailed to a banned user (auth none: the token is the credential).
 */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { myAppealsKeyset, myDecisionsKeyset } from './appeals.repository.ts';
import { maxAppealTextLength } from './appeals.service.ts';
import { AppealSchema, DecisionSchema, presentAppeal, presentDecision } from './presenters.ts';
import type { AppealsServices } from './public.ts';
import { appealLinkRateLimits, appealRateLimits } from './rate-limits.ts';

const AppealText = Type.String({
  maxLength: maxAppealTextLength * 2,
  description: `Why the decision is a mistake: 1 to ${maxAppealTextLength} characters once trimmed`,
});

export function appealsRoutes({ decisions, appeals }: Pick<AppealsServices, 'decisions' | 'appeals'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/api/users/me/moderation-decisions',
      auth: 'user',
      summary:
        'The moderation decisions about me (media hidden, comments deleted, bans), newest first, with their appeal',
      page: { keyset: myDecisionsKeyset },
      success: { status: 200, schema: CollectionSchema(DecisionSchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(await decisions.listOf(viewer.userId, page), { page, links }, myDecisionsKeyset, presentDecision),
    }),
    route({
      method: 'GET',
      path: '/api/users/me/appeals',
      auth: 'user',
      summary: 'My appeals, newest first, each with the decision it contests',
      page: { keyset: myAppealsKeyset },
      success: { status: 200, schema: CollectionSchema(AppealSchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(await appeals.listOf(viewer.userId, page), { page, links }, myAppealsKeyset, presentAppeal),
    }),
    route({
      method: 'POST',
      path: '/api/users/me/appeals',
      auth: 'user',
      summary:
        'Appeal a moderation decision about me, once, until its window closes (409 alreadyAppealed, appealWindowClosed)',
      body: Type.Object(
        {
          decisionId: Type.String({ format: 'uuid', description: 'The decision (its mail names it)' }),
          text: AppealText,
        },
        { additionalProperties: false },
      ),
      errors: ['notFound', 'alreadyAppealed', 'appealWindowClosed'],
      rateLimit: appealRateLimits,
      success: { status: 201, schema: DocumentSchema(AppealSchema) },
      handler: async ({ viewer, body, locale }) => ({
        data: presentAppeal(await appeals.file(viewer.userId, body.decisionId, body.text, locale)),
      }),
    }),
    route({
      method: 'POST',
      path: '/api/appeals',
      auth: 'none',
      summary:
        'Appeal a ban with the single-use link mailed with it (the user cannot sign in); valid until the appeal window closes',
      body: Type.Object(
        {
          token: Type.String({ minLength: 1, maxLength: 200, description: 'The code of the mailed link' }),
          text: AppealText,
        },
        { additionalProperties: false },
      ),
      errors: ['invalidToken', 'tokenUsed', 'tokenExpired', 'alreadyAppealed', 'appealWindowClosed'],
      rateLimit: appealLinkRateLimits,
      success: { status: 201, schema: DocumentSchema(AppealSchema) },
      handler: async ({ body, locale }) => ({
        data: presentAppeal(await appeals.fileByLink(body.token, body.text, locale)),
      }),
    }),
  ];
}
