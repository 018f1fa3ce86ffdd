import { boolean, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { ProviderName } from '../../adapters/identity/index.ts';
import { timestamptz } from '../../platform/db/columns.ts';

/** An identity provider's person linked to an account (migration 1400). */
export const userIdentities = pgTable('user_identities', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  provider: text('provider').$type<ProviderName>().notNull(),
  subject: text('subject').notNull(),
  email: text('email'),
  linkedAt: timestamptz('linked_at').notNull(),
  lastSignInAt: timestamptz('last_sign_in_at'),
  /** The provider vouched for the account's own address when it was linked (migration 1401). */
  provesAccountEmail: boolean('proves_account_email').notNull(),
});
export type IdentityRow = typeof userIdentities.$inferSelect;
