/**
 * The audit log: every admin action with actor, action, target, payload and time. Owned by the
 * platform; an area's service records its admin action here in the same transaction as the change
 * (the row joins the transaction in progress), so an action is audited if and only if it happened.
 */
import { and, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { Clock } from '../clock.ts';
import { timestamptz } from '../db/columns.ts';
import type { DbSource } from '../db/database.ts';
import { newestFirst } from '../db/keyset.ts';
import { keyset } from '../db/keyset-sql.ts';
import type { PageRequest } from '../db/page-request.ts';
import { newId } from '../ids/ids.ts';

export const auditLog = pgTable('audit_log', {
  id: uuid('id').primaryKey(),
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  targetType: text('target_type'),
  targetId: text('target_id'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamptz('created_at').notNull(),
});

export type AuditRow = typeof auditLog.$inferSelect;

/** GET /admin/audit, newest first (the index audit_log_created; the filters have theirs, 0002_operations). */
export const auditKeyset = newestFirst<AuditRow>('audit', auditLog);

export interface AuditFilter {
  /** An exact action, or a prefix when it ends with a dot ("media."). */
  action?: string;
  targetType?: string;
  targetId?: string;
  /** Entries at or after this time. */
  since?: Date;
  /** Entries strictly before this time. */
  until?: Date;
}

export interface AuditEntry {
  /** 'admin' for the admin token, or 'cli', or a user id. */
  actor: string;
  /** Dotted verb, e.g. 'media.flag', 'jobs.flush'. */
  action: string;
  targetType?: string;
  targetId?: string;
  payload?: Record<string, unknown>;
}

export class AuditLog {
  private readonly source: DbSource;
  private readonly clock: Clock;

  constructor(source: DbSource, clock: Clock) {
    this.source = source;
    this.clock = clock;
  }

  private get db() {
    return this.source.db;
  }

  /** Records the entry in the transaction in progress (the admin action's), or on its own. */
  async record(entry: AuditEntry): Promise<void> {
    await this.db.insert(auditLog).values({
      id: newId(),
      actor: entry.actor,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      payload: entry.payload ?? {},
      createdAt: this.clock.now(),
    });
  }

  /** Newest first (tests read the latest entries through it). */
  recent(limit = 50) {
    return this.db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit);
  }

  /**
   * An account erased for good (account deletion): its entries keep their action, actor kind and time,
   * but no longer name it. `ids` (the UUID and its hex) leave target ids and actors; a payload holding
   * any of `ids` or `texts` (e-mail, username) is emptied. Erasures are rare: the payload scan is fine.
   */
  async forgetUser(ids: string[], texts: string[]): Promise<void> {
    await this.db.update(auditLog).set({ targetId: null }).where(inArray(auditLog.targetId, ids));
    await this.db.update(auditLog).set({ actor: 'erased-user' }).where(inArray(auditLog.actor, ids));
    const needles = [...ids, ...texts].filter((needle) => needle !== '').map((needle) => needle.toLowerCase());
    if (needles.length === 0) return;
    await this.db
      .update(auditLog)
      .set({ payload: {} })
      .where(or(...needles.map((needle) => sql`strpos(lower(${auditLog.payload}::text), ${needle}) > 0`)));
  }

  /** limit + 1 entries of a page of GET /admin/audit. */
  list(filter: AuditFilter, page: PageRequest): Promise<AuditRow[]> {
    const { where, orderBy } = keyset(auditKeyset, page);
    const conditions: (SQL | undefined)[] = [
      filter.action === undefined
        ? undefined
        : filter.action.endsWith('.')
          ? // A byte-wise range (what text_pattern_ops indexes): "media." up to "media/", excluded.
            sql`${auditLog.action} ~>=~ ${filter.action} AND ${auditLog.action} ~<~ ${`${filter.action.slice(0, -1)}/`}`
          : eq(auditLog.action, filter.action),
      filter.targetType === undefined ? undefined : eq(auditLog.targetType, filter.targetType),
      filter.targetId === undefined ? undefined : eq(auditLog.targetId, filter.targetId),
      filter.since === undefined ? undefined : gte(auditLog.createdAt, filter.since),
      filter.until === undefined ? undefined : lt(auditLog.createdAt, filter.until),
      where,
    ];
    return this.db
      .select()
      .from(auditLog)
      .where(and(...conditions))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }
}
