/**
 * The audit log: every admin action with actor, action, target, payload and time. Owned by the
 * platform; an area's service records its admin action here in the same transaction as the change
 * (the row joins the transaction in progress), so an action is audited if and only if it happened.
 */
import { desc } from 'drizzle-orm';
import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { Clock } from '../clock.ts';
import { timestamptz } from '../db/columns.ts';
import type { DbSource } from '../db/database.ts';
import { newId } from '../http/ids.ts';

export const auditLog = pgTable('audit_log', {
  id: uuid('id').primaryKey(),
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  targetType: text('target_type'),
  targetId: text('target_id'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamptz('created_at').notNull(),
});

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

  /** Newest first; used by tests now and by GET /admin/audit later. */
  recent(limit = 50) {
    return this.db.select().from(auditLog).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit);
  }
}
