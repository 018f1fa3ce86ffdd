/** The three report routes of the interface: a media, a user, a comment (all `user`). */
import { Type } from 'typebox';
import { DocumentSchema, Nullable, StringEnum } from '../../platform/http/jsonapi.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { presentReport, ReportSchema } from './presenters.ts';
import type { ReportsServices } from './public.ts';
import { maxReportDetailsLength } from './reports.service.ts';
import { type ReportKind, reportReasons } from './tables.ts';

/** Shared by the three routes (one counter): 20 reports an hour per account, 60 per IP (docs/api.md). */
export const reportRateLimits = [perIp('reports', 60, 3600), perUser('reports', 20, 3600)];

const ReportBody = Type.Object(
  {
    reason: StringEnum(reportReasons, { description: 'Why the content breaks the rules' }),
    details: Type.Optional(
      Nullable(
        Type.String({ maxLength: maxReportDetailsLength, description: `At most ${maxReportDetailsLength} characters` }),
      ),
    ),
  },
  { additionalProperties: false },
);

const targets: { kind: ReportKind; path: string; param: string; description: string; what: string }[] = [
  {
    kind: 'media',
    path: '/api/media/{mediaId}/reports',
    param: 'mediaId',
    description: 'The media: UUID or 32 hex digits',
    what: 'a media',
  },
  {
    kind: 'user',
    path: '/api/users/{userHex}/reports',
    param: 'userHex',
    description: 'The user: 32 hex digits or UUID',
    what: 'a user',
  },
  {
    kind: 'comment',
    path: '/api/media/comments/{commentId}/reports',
    param: 'commentId',
    description: 'The comment UUID',
    what: 'a comment',
  },
];

export function reportsRoutes({ reports }: Pick<ReportsServices, 'reports'>): AnyRoute[] {
  return targets.map(({ kind, path, param, description, what }) =>
    route({
      method: 'POST',
      path,
      auth: 'user',
      summary: `Report ${what} to the moderators (one open report per target; 409 alreadyReported, 422 cannotReportSelf)`,
      params: { [param]: idParam(description, { hex: kind !== 'comment' }) },
      body: ReportBody,
      errors: ['notFound', 'alreadyReported', 'cannotReportSelf'],
      rateLimit: reportRateLimits,
      success: { status: 201, schema: DocumentSchema(ReportSchema) },
      handler: async ({ viewer, params, body, locale }) => {
        const targetId = params[param];
        if (targetId === undefined) throw new Error(`no ${param} parameter`);
        return { data: presentReport(await reports.file(viewer.userId, kind, targetId, body, locale)) };
      },
    }),
  );
}
