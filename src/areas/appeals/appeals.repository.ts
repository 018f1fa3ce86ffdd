/** All SQL of appeals: decisions, appeals, the mailed appeal links and the users' mail locales. */
import { and, eq, getTableColumns, gt, isNull, sql } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import {
  type AppealOutcome,
  type AppealRow,
  type AppealStatus,
  appealLinks,
  appeals,
  type DecisionRow,
  moderationDecisions as decisions,
  moderationLocales,
  type NewDecision,
} from './tables.ts';

/** An appeal with the decision it contests. */
export interface AppealWithDecision {
  appeal: AppealRow;
  decision: DecisionRow;
}

/** A decision as its user sees it: with the status of its appeal, if any. */
export interface DecisionWithAppeal {
  decision: DecisionRow;
  appealStatus: AppealStatus | null;
}

/** A user's decisions, newest first (GET /api/users/me/moderation-decisions). */
export const myDecisionsKeyset = defineKeyset<DecisionWithAppeal>({
  name: 'moderation-decisions',
  shape: ['timestamp', 'uuid'],
  columns: [decisions.createdAt, decisions.id],
  keyOf: (row) => [row.decision.createdAt, row.decision.id],
});

const appealsNewestFirst = (name: string) =>
  defineKeyset<AppealWithDecision>({
    name,
    shape: ['timestamp', 'uuid'],
    columns: [appeals.createdAt, appeals.id],
    keyOf: (row) => [row.appeal.createdAt, row.appeal.id],
  });

/** A user's appeals, newest first (GET /api/users/me/appeals). */
export const myAppealsKeyset = appealsNewestFirst('appeals');
/** Every appeal, newest first, whole or by status (GET /admin/appeals). */
export const adminAppealsKeyset = appealsNewestFirst('admin-appeals');

export class AppealsRepository extends Repository {
  // Decisions ---------------------------------------------------------------------------------------

  async insertDecision(row: NewDecision): Promise<DecisionRow> {
    return returned((await this.db.insert(decisions).values(row).returning())[0], 'moderation_decisions.insert');
  }

  async findDecision(id: string): Promise<DecisionRow | null> {
    const [row] = await this.db.select().from(decisions).where(eq(decisions.id, id));
    return row ?? null;
  }

  /** limit + 1 rows of a page of the user's decisions. */
  listDecisions(userId: string, page: PageRequest): Promise<DecisionWithAppeal[]> {
    const { where, orderBy } = keyset(myDecisionsKeyset, page);
    return this.db
      .select({ decision: decisions, appealStatus: appeals.status })
      .from(decisions)
      .leftJoin(appeals, eq(appeals.decisionId, decisions.id))
      .where(and(eq(decisions.userId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async markReversed(decisionId: string, at: Date): Promise<void> {
    await this.db.update(decisions).set({ reversedAt: at }).where(eq(decisions.id, decisionId));
  }

  // Appeals -----------------------------------------------------------------------------------------

  /** The new appeal, or null when the decision has one already (the unique decision_id decides). */
  async insertAppeal(row: typeof appeals.$inferInsert): Promise<AppealRow | null> {
    const [inserted] = await this.db.insert(appeals).values(row).onConflictDoNothing().returning();
    return inserted ?? null;
  }

  async appealOfDecision(decisionId: string): Promise<AppealRow | null> {
    const [row] = await this.db.select().from(appeals).where(eq(appeals.decisionId, decisionId));
    return row ?? null;
  }

  async findAppeal(id: string): Promise<AppealWithDecision | null> {
    const [row] = await this.db
      .select({ appeal: appeals, decision: decisions })
      .from(appeals)
      .innerJoin(decisions, eq(decisions.id, appeals.decisionId))
      .where(eq(appeals.id, id));
    return row ?? null;
  }

  /** Decides a pending appeal (atomic: of two decisions at once, one wins); null when not pending. */
  async decidePending(
    id: string,
    outcome: AppealOutcome,
    response: string | null,
    at: Date,
  ): Promise<AppealRow | null> {
    const [row] = await this.db
      .update(appeals)
      .set({ status: outcome, response, decidedAt: at })
      .where(and(eq(appeals.id, id), eq(appeals.status, 'pending')))
      .returning();
    return row ?? null;
  }

  /** limit + 1 rows of a page of the user's appeals. */
  listAppealsOf(userId: string, page: PageRequest): Promise<AppealWithDecision[]> {
    const { where, orderBy } = keyset(myAppealsKeyset, page);
    return this.db
      .select({ appeal: appeals, decision: decisions })
      .from(appeals)
      .innerJoin(decisions, eq(decisions.id, appeals.decisionId))
      .where(and(eq(appeals.userId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** limit + 1 rows of a page of the admin list. */
  listAppeals(status: AppealStatus | undefined, page: PageRequest): Promise<AppealWithDecision[]> {
    const { where, orderBy } = keyset(adminAppealsKeyset, page);
    return this.db
      .select({ appeal: appeals, decision: decisions })
      .from(appeals)
      .innerJoin(decisions, eq(decisions.id, appeals.decisionId))
      .where(and(status === undefined ? undefined : eq(appeals.status, status), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async countAppeals(status: AppealStatus | undefined): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(appeals)
      .where(status === undefined ? undefined : eq(appeals.status, status));
    return row?.count ?? 0;
  }

  // Links -------------------------------------------------------------------------------------------

  async insertLink(row: typeof appealLinks.$inferInsert): Promise<void> {
    await this.db.insert(appealLinks).values(row);
  }

  async findLink(tokenHash: string) {
    const [row] = await this.db.select().from(appealLinks).where(eq(appealLinks.tokenHash, tokenHash));
    return row ?? null;
  }

  /** Spends the link; false when it was spent meanwhile. */
  async useLink(decisionId: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(appealLinks)
      .set({ usedAt: at })
      .where(and(eq(appealLinks.decisionId, decisionId), isNull(appealLinks.usedAt)))
      .returning({ decisionId: appealLinks.decisionId });
    return rows.length === 1;
  }

  // Locales -----------------------------------------------------------------------------------------

  async localeOf(userId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ locale: moderationLocales.locale })
      .from(moderationLocales)
      .where(eq(moderationLocales.userId, userId));
    return row?.locale ?? null;
  }

  async setLocale(userId: string, locale: string, at: Date): Promise<void> {
    await this.db
      .insert(moderationLocales)
      .values({ userId, locale, updatedAt: at })
      .onConflictDoUpdate({ target: moderationLocales.userId, set: { locale, updatedAt: at } });
  }

  // Export and erasure ------------------------------------------------------------------------------

  exportDecisions(userId: string, after: string | null, limit: number) {
    return this.db
      .select()
      .from(decisions)
      .where(and(eq(decisions.userId, userId), after === null ? undefined : gt(decisions.id, after)))
      .orderBy(decisions.id)
      .limit(limit);
  }

  exportAppeals(userId: string, after: string | null, limit: number) {
    return this.db
      .select(getTableColumns(appeals))
      .from(appeals)
      .where(and(eq(appeals.userId, userId), after === null ? undefined : gt(appeals.id, after)))
      .orderBy(appeals.id)
      .limit(limit);
  }

  /** An erased or anonymized account: its decisions (their appeals and links with them) and its locale. */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(appeals).where(eq(appeals.userId, userId));
    await this.db.delete(decisions).where(eq(decisions.userId, userId));
    await this.db.delete(moderationLocales).where(eq(moderationLocales.userId, userId));
  }
}
