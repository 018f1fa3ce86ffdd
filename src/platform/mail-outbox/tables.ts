/** The mail outbox (migration 0040): one row per mail, from filing to sent or failed. */
import { integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.ts';

export const mailStatuses = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof mailStatuses)[number];

export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey(),
  /** What the mail is for (confirm-email, reset-password, newsletter-confirm, report-outcome…), for logs and operators. */
  kind: text('kind').notNull(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  headers: jsonb('headers').$type<Record<string, string>>(),
  status: text('status').$type<MailStatus>().notNull(),
  /** Attempts begun: counted when a sender claims the row, so a send that crashed the process counts too. */
  attempts: integer('attempts').notNull(),
  nextAttemptAt: timestamptz('next_attempt_at').notNull(),
  /** A sender's lease: while it runs, no other sender takes the row. */
  claimedUntil: timestamptz('claimed_until'),
  lastError: text('last_error'),
  createdAt: timestamptz('created_at').notNull(),
  /** When it was sent, or given up (status failed). */
  finishedAt: timestamptz('finished_at'),
});
export type OutboxRow = typeof mailOutbox.$inferSelect;
