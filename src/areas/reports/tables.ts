import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

export const reportKinds = ['media', 'user', 'comment'] as const;
export type ReportKind = (typeof reportKinds)[number];

export const reportReasons = ['spam', 'nudity', 'harassment', 'violence', 'copyright', 'privacy', 'other'] as const;
export type ReportReason = (typeof reportReasons)[number];

export const reportStatuses = ['open', 'resolved'] as const;
export type ReportStatus = (typeof reportStatuses)[number];

export const reportResolutions = ['actioned', 'dismissed'] as const;
export type ReportResolution = (typeof reportResolutions)[number];

export const reportActions = ['hideMedia', 'deleteComment', 'banUser'] as const;
export type ReportAction = (typeof reportActions)[number];

export const reports = pgTable('reports', {
  id: uuid('id').primaryKey(),
  reporterId: uuid('reporter_id').notNull(),
  targetKind: text('target_kind').$type<ReportKind>().notNull(),
  targetId: uuid('target_id').notNull(),
  targetUserId: uuid('target_user_id'),
  reason: text('reason').$type<ReportReason>().notNull(),
  details: text('details'),
  locale: text('locale').notNull(),
  status: text('status').$type<ReportStatus>().notNull().default('open'),
  resolution: text('resolution').$type<ReportResolution>(),
  action: text('action').$type<ReportAction>(),
  note: text('note'),
  resolvedAt: timestamptz('resolved_at'),
  createdAt: timestamptz('created_at').notNull(),
});
export type ReportRow = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;
