import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

export const subscriberStatuses = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof subscriberStatuses)[number];

export const newsletterTokenPurposes = ['confirm', 'unsubscribe'] as const;
export type NewsletterTokenPurpose = (typeof newsletterTokenPurposes)[number];

export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull().unique(),
  status: text('status').$type<SubscriberStatus>().notNull(),
  locale: text('locale').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
  confirmedAt: timestamptz('confirmed_at'),
  unsubscribedAt: timestamptz('unsubscribed_at'),
});
export type SubscriberRow = typeof newsletterSubscribers.$inferSelect;

export const newsletterTokens = pgTable('newsletter_tokens', {
  id: uuid('id').primaryKey(),
  subscriberId: uuid('subscriber_id')
    .notNull()
    .references(() => newsletterSubscribers.id, { onDelete: 'cascade' }),
  purpose: text('purpose').$type<NewsletterTokenPurpose>().notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamptz('created_at').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
  usedAt: timestamptz('used_at'),
});
export type NewsletterTokenRow = typeof newsletterTokens.$inferSelect;
