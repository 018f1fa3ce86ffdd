import { pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** What an operator did that the user it touched may appeal. */
export const decisionKinds = ['mediaHidden', 'commentDeleted', 'userBanned'] as const;
export type DecisionKind = (typeof decisionKinds)[number];

export const appealStatuses = ['pending', 'upheld', 'reversed'] as const;
export type AppealStatus = (typeof appealStatuses)[number];

/** The outcomes an operator gives an appeal. */
export const appealOutcomes = ['upheld', 'reversed'] as const;
export type AppealOutcome = (typeof appealOutcomes)[number];

/** Moderation decisions (migration 1630): one row per action a user is told of. */
export const moderationDecisions = pgTable('moderation_decisions', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  kind: text('kind').$type<DecisionKind>().notNull(),
  targetId: uuid('target_id').notNull(),
  mediaId: uuid('media_id'),
  previousFlag: smallint('previous_flag'),
  removedText: text('removed_text'),
  reportId: uuid('report_id'),
  reportReason: text('report_reason'),
  note: text('note'),
  banUntil: timestamptz('ban_until'),
  createdAt: timestamptz('created_at').notNull(),
  appealUntil: timestamptz('appeal_until').notNull(),
  reversedAt: timestamptz('reversed_at'),
});
export type DecisionRow = typeof moderationDecisions.$inferSelect;
export type NewDecision = typeof moderationDecisions.$inferInsert;

export const appeals = pgTable('appeals', {
  id: uuid('id').primaryKey(),
  decisionId: uuid('decision_id').notNull(),
  userId: uuid('user_id').notNull(),
  text: text('text').notNull(),
  locale: text('locale').notNull(),
  status: text('status').$type<AppealStatus>().notNull().default('pending'),
  response: text('response'),
  createdAt: timestamptz('created_at').notNull(),
  decidedAt: timestamptz('decided_at'),
});
export type AppealRow = typeof appeals.$inferSelect;

export const appealLinks = pgTable('appeal_links', {
  decisionId: uuid('decision_id').primaryKey(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
  usedAt: timestamptz('used_at'),
});

export const moderationLocales = pgTable('moderation_locales', {
  userId: uuid('user_id').primaryKey(),
  locale: text('locale').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
