/** The search index's admin resources: a reindexed document, a rebuild's counts, the health report. */
import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, StringEnum, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp } from '../../platform/http/time.ts';
import { toHex } from '../../platform/ids/ids.ts';
import type { KindStatus, RebuildReport } from './search-index.service.ts';
import type { SearchKind } from './tables.ts';

const Kind = StringEnum(['user', 'media'] as const);

export const ReindexedDocumentSchema = ResourceSchema(
  'searchDocuments',
  Type.Object({
    kind: Kind,
    hex: Type.String({ description: 'the source id, 32 hex digits' }),
    indexed: Type.Boolean({ description: 'whether the source has a document now (false: not public, so removed)' }),
    changed: Type.Boolean({ description: 'whether the indexed text or presence changed (false: it was current)' }),
  }),
  undefined,
  'ReindexedSearchDocument',
);

export const presentReindexed = (kind: SearchKind, id: string, outcome: { indexed: boolean; changed: boolean }) =>
  resource('searchDocuments', id, { kind, hex: toHex(id), indexed: outcome.indexed, changed: outcome.changed });

export const SearchRebuildSchema = ResourceSchema(
  'searchRebuilds',
  Type.Object({
    kind: Kind,
    scanned: Type.Integer({ description: 'source rows read, public or not' }),
    indexed: Type.Integer({ description: 'documents written' }),
    removed: Type.Integer({ description: 'documents removed (source gone or no longer public)' }),
    batches: Type.Integer(),
  }),
  undefined,
  'SearchRebuild',
);

export const presentRebuild = (report: RebuildReport) =>
  resource('searchRebuilds', report.kind, {
    kind: report.kind,
    scanned: report.scanned,
    indexed: report.indexed,
    removed: report.removed,
    batches: report.batches,
  });

const KindHealthSchema = Type.Object({
  sources: Type.Integer({ description: 'public sources, which should each have a document' }),
  documents: Type.Integer(),
  stale: Type.Integer({ description: "documents older than their source's updated_at" }),
  missing: Type.Integer({ description: 'public sources without a document' }),
  orphaned: Type.Integer({ description: 'documents whose source is gone or no longer public' }),
  lastRebuildAt: Nullable(Timestamp),
  lastRepairAt: Nullable(Timestamp),
});

export const SearchHealthSchema = ResourceSchema(
  'searchHealth',
  Type.Object({ users: KindHealthSchema, media: KindHealthSchema }),
  undefined,
  'SearchHealth',
);

const presentKind = (status: KindStatus) => ({
  sources: status.sources,
  documents: status.documents,
  stale: status.stale,
  missing: status.missing,
  orphaned: status.orphaned,
  lastRebuildAt: formatNullableTimestamp(status.lastRebuildAt),
  lastRepairAt: formatNullableTimestamp(status.lastRepairAt),
});

export const presentHealth = (health: Record<SearchKind, KindStatus>) =>
  resource('searchHealth', 'search', { users: presentKind(health.user), media: presentKind(health.media) });
