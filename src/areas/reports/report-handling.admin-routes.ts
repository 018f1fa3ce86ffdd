/** Report handling for operators: the list, one report with its target's state, the resolution. Audited in the service. */
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema, Nullable, StringEnum } from '../../platform/http/jsonapi.ts';
import { pageDocument } from '../../platform/http/page-document.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { maxBanReasonLength, maxNoteLength } from './admin/report-handling.service.ts';
import {
  AdminReportDetailSchema,
  AdminReportSchema,
  presentAdminReport,
  presentAdminReportDetail,
} from './presenters.ts';
import type { ReportsServices } from './public.ts';
import { adminReportsKeyset } from './reports.repository.ts';
import { reportActions, reportKinds, reportReasons, reportResolutions, reportStatuses } from './tables.ts';

const params = { hex: idParam('The report: UUID or 32 hex digits') };

const ResolveBody = Type.Object(
  {
    resolution: StringEnum(reportResolutions),
    note: Type.Optional(
      Nullable(
        Type.String({
          maxLength: maxNoteLength,
          description: 'Never shown to the reporter; with an action, told to the user it touches (their decision mail)',
        }),
      ),
    ),
    action: Type.Optional(
      StringEnum(reportActions, {
        description:
          'With `actioned` only: hideMedia (media reports), deleteComment (comment reports), banUser (any: the user, the media owner, the comment author)',
      }),
    ),
    banReason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: maxBanReasonLength,
        description: 'banUser only; default `report: <reason>`',
      }),
    ),
    banUntil: Type.Optional(
      Nullable(
        Type.String({
          format: 'date-time',
          description: 'banUser only: RFC 3339, in the future; absent or null bans without end',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export function reportHandlingAdminRoutes({ reportHandling }: Pick<ReportsServices, 'reportHandling'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/admin/reports',
      auth: 'admin',
      summary: 'Reports, newest first, filtered by status, kind and reason',
      page: { keyset: adminReportsKeyset, defaultLimit: 50, maxLimit: 200 },
      query: {
        status: Type.Optional(StringEnum(reportStatuses)),
        kind: Type.Optional(StringEnum(reportKinds)),
        reason: Type.Optional(StringEnum(reportReasons)),
      },
      success: {
        status: 200,
        schema: CollectionSchema(AdminReportSchema, {
          total: Type.Integer({ description: 'Reports matching the filters' }),
        }),
      },
      handler: async ({ query, page, links }) => {
        const { page: result, total } = await reportHandling.list(query, page);
        return pageDocument(result, { page, links }, presentAdminReport, { total });
      },
    }),
    route({
      method: 'GET',
      path: '/admin/reports/{hex}',
      auth: 'admin',
      summary: "One report, with its target's current state and how many reports the target has",
      params,
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(AdminReportDetailSchema) },
      handler: async ({ params }) => ({ data: presentAdminReportDetail(await reportHandling.detail(params.hex)) }),
    }),
    route({
      method: 'PATCH',
      path: '/admin/reports/{hex}',
      auth: 'admin',
      summary:
        'Resolve a report (actioned or dismissed), with an optional action done in the same transaction; the reporter is mailed the outcome',
      params,
      body: ResolveBody,
      errors: ['notFound', 'reportAlreadyResolved', 'actionNotApplicable'],
      success: {
        status: 200,
        schema: DocumentSchema(AdminReportSchema, {
          meta: Type.Object({
            alsoResolved: Type.Array(Type.String({ format: 'uuid' }), {
              description: 'Other open reports on the same target, resolved with this one',
            }),
          }),
        }),
      },
      handler: async ({ params, body }) => {
        const { report, alsoResolved } = await reportHandling.resolve(params.hex, body);
        return { data: presentAdminReport(report), meta: { alsoResolved: alsoResolved.map((row) => row.id) } };
      },
    }),
  ];
}
