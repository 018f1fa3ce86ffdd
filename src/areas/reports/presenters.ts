/** Reports as their reporter sees them, and as operators do (with the target's state on one report). */
import { type Static, Type } from 'typebox';
import { Nullable, ResourceSchema, resource, StringEnum, Timestamp, Uuid } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import type { ReportDetail } from './admin/report-handling.service.ts';
import type { ReportCounts } from './reports.repository.ts';
import {
  type ReportRow,
  reportActions,
  reportKinds,
  reportReasons,
  reportResolutions,
  reportStatuses,
} from './tables.ts';

const reporterAttributes = {
  kind: StringEnum(reportKinds, { description: 'What is reported' }),
  targetId: Uuid,
  reason: StringEnum(reportReasons),
  details: Nullable(Type.String()),
  status: StringEnum(reportStatuses),
  createdAt: Timestamp,
};

/** What the reporter may see of their report. */
export const ReportSchema = ResourceSchema('reports', Type.Object(reporterAttributes), undefined, 'Report');

export function presentReport(row: ReportRow) {
  return resource('reports', row.id, {
    kind: row.targetKind,
    targetId: row.targetId,
    reason: row.reason,
    details: row.details,
    status: row.status,
    createdAt: formatTimestamp(row.createdAt),
  });
}

const adminAttributes = {
  ...reporterAttributes,
  reporterId: Uuid,
  targetUserId: Nullable(Type.String({ format: 'uuid', description: 'The user the target belongs to' })),
  locale: Type.String({ description: 'The locale of the outcome mail' }),
  resolution: Nullable(StringEnum(reportResolutions)),
  action: Nullable(StringEnum(reportActions)),
  note: Nullable(Type.String()),
  resolvedAt: Nullable(Timestamp),
};

/** A report in the admin list. */
export const AdminReportSchema = ResourceSchema('reports', Type.Object(adminAttributes), undefined, 'AdminReport');

const TargetStateSchema = Type.Object(
  {
    deleted: Type.Boolean({ description: 'The target is gone (a comment: shows as a deleted placeholder)' }),
    published: Type.Optional(Type.Boolean({ description: 'media' })),
    flag: Type.Optional(Type.Integer({ description: 'media: 0 none, 1 sensitive, 2 hidden' })),
    banned: Type.Optional(Type.Boolean({ description: 'user' })),
    anonymized: Type.Optional(Type.Boolean({ description: 'user' })),
    authorBanned: Type.Optional(Type.Boolean({ description: 'comment' })),
    body: Type.Optional(Nullable(Type.String({ description: 'comment: its text, null once deleted' }))),
  },
  { description: "The target's state now; fields of other kinds are absent" },
);
const CountsSchema = Type.Object({ open: Type.Integer(), total: Type.Integer() });

/** One report for operators: the target's current state and how many reports it has. */
export const AdminReportDetailSchema = ResourceSchema(
  'reports',
  Type.Object({ ...adminAttributes, target: TargetStateSchema, targetReports: CountsSchema }),
  undefined,
  'AdminReportDetail',
);

export function presentAdminReport(row: ReportRow) {
  const base = presentReport(row);
  return {
    ...base,
    attributes: {
      ...base.attributes,
      reporterId: row.reporterId,
      targetUserId: row.targetUserId,
      locale: row.locale,
      resolution: row.resolution,
      action: row.action,
      note: row.note,
      resolvedAt: formatNullableTimestamp(row.resolvedAt),
    },
  };
}

export function presentAdminReportDetail({ report, target, targetReports }: ReportDetail) {
  const base = presentAdminReport(report);
  const counts: ReportCounts = targetReports;
  const state: Static<typeof TargetStateSchema> = target;
  return { ...base, attributes: { ...base.attributes, target: state, targetReports: counts } };
}
