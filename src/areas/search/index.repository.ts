/**
 * All writes of the search index and its health counts. Documents are computed in SQL from the
 * sources (sources.ts), so an upsert always reflects the source row as this transaction sees it.
 * Batches run in id order: two rebuilds at once lock the same rows in the same order and take turns.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { nameOf, namesOf } from '../../platform/db/column-names.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { mediaRows as media } from '../media/read-model.ts';
import { type SourceSql, sources } from './sources.ts';
import { type SearchDocumentRow, type SearchKind, type SearchRunKind, searchDocuments, searchRuns } from './tables.ts';

export interface KindHealth {
  sources: number;
  documents: number;
  stale: number;
  missing: number;
  orphaned: number;
}

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

export class IndexRepository extends Repository {
  async find(kind: SearchKind, sourceId: string): Promise<SearchDocumentRow | null> {
    const [row] = await this.db
      .select()
      .from(searchDocuments)
      .where(and(eq(searchDocuments.kind, kind), eq(searchDocuments.sourceId, sourceId)));
    return row ?? null;
  }

  /** Whether the source row exists at all (public or not). */
  async sourceExists(kind: SearchKind, sourceId: string): Promise<boolean> {
    const source = sources[kind];
    const rows = await queryRows(this.db, sql`SELECT 1 FROM ${source.from} WHERE ${source.id} = ${sourceId}::uuid`);
    return rows.length > 0;
  }

  /** Upserts the documents of the public sources among `ids`; returns how many were written. */
  async upsert(kind: SearchKind, ids: readonly string[], now: Date): Promise<number> {
    if (ids.length === 0) return 0;
    return this.#upsertWhere(kind, sql`${sources[kind].id} IN (${idList(ids)})`, now);
  }

  async #upsertWhere(kind: SearchKind, where: SQL, now: Date): Promise<number> {
    const s = sources[kind];
    const doc = searchDocuments;
    const written = [doc.name, doc.label, doc.body, doc.document, doc.sourceUpdatedAt, doc.indexedAt];
    const rows = await queryRows(
      this.db,
      sql`INSERT INTO ${doc} (${namesOf(doc.kind, doc.sourceId, ...written)})
          SELECT ${kind}::text, ${s.id}, ${s.name}, ${s.label}, ${s.body}, ${s.document}, ${s.updatedAt}, ${now.toISOString()}::timestamptz
          FROM ${s.from}
          WHERE ${s.isPublic} AND ${where}
          ORDER BY ${s.id}
          ON CONFLICT (${namesOf(doc.kind, doc.sourceId)}) DO UPDATE SET
            ${sql.join(
              written.map((column) => sql`${nameOf(column)} = excluded.${nameOf(column)}`),
              sql`, `,
            )}
          RETURNING ${doc.sourceId}`,
    );
    return rows.length;
  }

  /** Deletes the documents among `ids` whose source is gone or no longer public; returns how many. */
  async removeNonPublic(kind: SearchKind, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await queryRows(
      this.db,
      sql`DELETE FROM ${searchDocuments}
          WHERE ${searchDocuments.kind} = ${kind} AND ${searchDocuments.sourceId} IN (${idList(ids)})
            AND NOT ${publicSourceExists(sources[kind])}
          RETURNING ${searchDocuments.sourceId}`,
    );
    return rows.length;
  }

  /**
   * An erased account (`user.erasing`): its user document (its media documents leave with its media,
   * through `media.deleted`). The confirmation took it out already; this covers a missed event.
   */
  async eraseUser(userId: string): Promise<void> {
    await this.db
      .delete(searchDocuments)
      .where(and(eq(searchDocuments.kind, 'user'), eq(searchDocuments.sourceId, userId)));
  }

  /** Every media id of an owner (the owners' media index). */
  async mediaIdsOf(ownerId: string): Promise<string[]> {
    const rows = await this.db.select({ id: media.id }).from(media).where(eq(media.ownerId, ownerId));
    return rows.map((row) => row.id);
  }

  /** The next `limit` source ids after `after` (every source row, public or not), in id order. */
  async sourceIds(kind: SearchKind, after: string | null, limit: number): Promise<string[]> {
    const s = sources[kind];
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`SELECT ${s.id} AS id FROM ${s.from}
          WHERE ${after === null ? sql`true` : sql`${s.id} > ${after}::uuid`}
          ORDER BY ${s.id} LIMIT ${limit}`,
    );
    return rows.map((row) => row.id);
  }

  /**
   * The next `limit` public sources after `after` with no document or a document older than the source.
   * The document is looked up by a scalar subquery, which PostgreSQL never turns into a join: each
   * source probes the index's key, whatever the statistics say. As a join, after a bulk import whose
   * documents the statistics did not have yet, it was planned for one document and read them all for
   * each batch (search-index.plans.test.ts).
   */
  async staleOrMissingIds(kind: SearchKind, after: string | null, limit: number): Promise<string[]> {
    const s = sources[kind];
    const doc = searchDocuments;
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`SELECT ${s.id} AS id FROM ${s.from}
          WHERE ${s.isPublic}
            AND NOT coalesce((SELECT ${doc.sourceUpdatedAt} >= ${s.updatedAt} FROM ${doc}
                              WHERE ${doc.kind} = ${kind} AND ${doc.sourceId} = ${s.id}), false)
            AND ${after === null ? sql`true` : sql`${s.id} > ${after}::uuid`}
          ORDER BY ${s.id} LIMIT ${limit}`,
    );
    return rows.map((row) => row.id);
  }

  /** The next `limit` document ids after `after` whose source is gone or no longer public. */
  async orphanIds(kind: SearchKind, after: string | null, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`SELECT ${searchDocuments.sourceId} AS id FROM ${searchDocuments}
          WHERE ${searchDocuments.kind} = ${kind} AND NOT ${publicSourceExists(sources[kind])}
            AND ${after === null ? sql`true` : sql`${searchDocuments.sourceId} > ${after}::uuid`}
          ORDER BY ${searchDocuments.sourceId} LIMIT ${limit}`,
    );
    return rows.map((row) => row.id);
  }

  async health(kind: SearchKind): Promise<KindHealth> {
    const s = sources[kind];
    const doc = searchDocuments;
    const [row] = await queryRows<KindHealth>(
      this.db,
      sql`SELECT
            (SELECT count(*)::int FROM ${s.from} WHERE ${s.isPublic}) AS sources,
            (SELECT count(*)::int FROM ${doc} WHERE ${doc.kind} = ${kind}) AS documents,
            (SELECT count(*)::int FROM ${s.from} JOIN ${doc} ON ${doc.kind} = ${kind} AND ${doc.sourceId} = ${s.id}
              WHERE ${s.isPublic} AND ${doc.sourceUpdatedAt} < ${s.updatedAt}) AS stale,
            (SELECT count(*)::int FROM ${s.from} WHERE ${s.isPublic} AND NOT EXISTS
              (SELECT 1 FROM ${doc} WHERE ${doc.kind} = ${kind} AND ${doc.sourceId} = ${s.id})) AS missing,
            (SELECT count(*)::int FROM ${doc} WHERE ${doc.kind} = ${kind} AND NOT ${publicSourceExists(s)}) AS orphaned`,
    );
    return returned(row, 'search.drift');
  }

  async recordRun(kind: SearchKind, run: SearchRunKind, finishedAt: Date, report: Record<string, unknown>) {
    await this.db
      .insert(searchRuns)
      .values({ kind, run, finishedAt, report })
      .onConflictDoUpdate({ target: [searchRuns.kind, searchRuns.run], set: { finishedAt, report } });
  }

  async lastRuns(): Promise<Array<{ kind: SearchKind; run: SearchRunKind; finishedAt: Date }>> {
    return this.db
      .select({ kind: searchRuns.kind, run: searchRuns.run, finishedAt: searchRuns.finishedAt })
      .from(searchRuns);
  }
}

/** EXISTS a public source for the search_documents row in scope. */
const publicSourceExists = (s: SourceSql) =>
  sql`EXISTS (SELECT 1 FROM ${s.from} WHERE ${s.id} = ${searchDocuments.sourceId} AND ${s.isPublic})`;
