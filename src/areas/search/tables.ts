import { customType, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

/** A full-text vector; written only by SQL (to_tsvector), never read as a value. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** What a document indexes: a user or a media post. */
export type SearchKind = 'user' | 'media';

/** One derived document per public source (migrations/0500_search_index.sql says what each column holds). */
export const searchDocuments = pgTable(
  'search_documents',
  {
    kind: text('kind').$type<SearchKind>().notNull(),
    sourceId: uuid('source_id').notNull(),
    name: text('name').notNull(),
    label: text('label').notNull(),
    body: text('body').notNull(),
    document: tsvector('document').notNull(),
    sourceUpdatedAt: timestamptz('source_updated_at').notNull(),
    indexedAt: timestamptz('indexed_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.sourceId] })],
);
export type SearchDocumentRow = typeof searchDocuments.$inferSelect;

export type SearchRunKind = 'rebuild' | 'repair';

/** The last rebuild and the last repair of each kind. */
export const searchRuns = pgTable(
  'search_runs',
  {
    kind: text('kind').$type<SearchKind>().notNull(),
    run: text('run').$type<SearchRunKind>().notNull(),
    finishedAt: timestamptz('finished_at').notNull(),
    report: jsonb('report').$type<Record<string, unknown>>().notNull(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.run] })],
);

/**
 * The words of the user documents (their `document`'s lexemes), one row a word and a user, in
 * code-point order; written only by the triggers of migrations/1970_search_user_words.sql.
 */
export const searchUserWords = pgTable(
  'search_user_words',
  {
    word: text('word').notNull(),
    sourceId: uuid('source_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.word, table.sourceId] })],
);
