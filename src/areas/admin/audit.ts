/** The audit log: every admin action with actor, action, target, payload and time. */
import { desc } from 'drizzle-orm';
import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { Clock } from '../../platform/clock.ts';
import { timestamptz } from '../../platform/db/columns.ts';
import type { Db } from '../../platform/db/database.ts';
import { newId } from '../../platform/http/ids.ts';

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
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  async record(entry: AuditEntry, db: Db = this.db): Promise<void> {
    await db.insert(auditLog).values({
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
