/** All SQL of reports: filing (one open report per reporter and target), resolving, lists and counts. */
import { and, eq, getTableColumns, gt, ne, type SQL, sql } from 'drizzle-orm';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { userRows as users } from '../accounts/read-model.ts';
import { mediaRows as media } from '../media/read-model.ts';
import {
  type NewReport,
  type ReportAction,
  type ReportKind,
  type ReportReason,
  type ReportResolution,
  type ReportRow,
  type ReportStatus,
  reports,
} from './tables.ts';

/** The admin list, newest first. */
export const adminReportsKeyset = newestFirst<ReportRow>('admin-reports', reports);

export interface ReportFilter {
  status?: ReportStatus;
  kind?: ReportKind;
  reason?: ReportReason;
}

export interface Resolution {
  resolution: ReportResolution;
  action: ReportAction | null;
  note: string | null;
  resolvedAt: Date;
}

/** A report with what its target's owning area shows of the target now (media and users; comments ask comments). */
export interface ReportWithTarget {
  report: ReportRow;
  media: { published: boolean; flag: number } | null;
  user: { bannedAt: Date | null; anonymizedAt: Date | null } | null;
}

export interface ReportCounts {
  open: number;
  total: number;
}

const filterOf = (filter: ReportFilter): SQL | undefined =>
  and(
    filter.status === undefined ? undefined : eq(reports.status, filter.status),
    filter.kind === undefined ? undefined : eq(reports.targetKind, filter.kind),
    filter.reason === undefined ? undefined : eq(reports.reason, filter.reason),
  );

export class ReportsRepository extends Repository {
  /** The new report, or null when the reporter already has an open report on this target. */
  async insert(row: NewReport): Promise<ReportRow | null> {
    // ON CONFLICT DO NOTHING covers the partial unique index reports_one_open, so two at once give one row.
    const [inserted] = await this.db.insert(reports).values(row).onConflictDoNothing().returning();
    return inserted ?? null;
  }

  async findById(id: string): Promise<ReportRow | null> {
    const [row] = await this.db.select().from(reports).where(eq(reports.id, id));
    return row ?? null;
  }

  /** The report with its media or user target's current state, joined through their read models. */
  async findWithTarget(id: string): Promise<ReportWithTarget | null> {
    const [row] = await this.db
      .select({
        report: reports,
        mediaPublished: media.published,
        mediaFlag: media.flag,
        userId: users.id,
        userBannedAt: users.bannedAt,
        userAnonymizedAt: users.anonymizedAt,
      })
      .from(reports)
      .leftJoin(media, and(eq(reports.targetKind, 'media'), eq(media.id, reports.targetId)))
      .leftJoin(users, and(eq(reports.targetKind, 'user'), eq(users.id, reports.targetId)))
      .where(eq(reports.id, id));
    if (row === undefined) return null;
    return {
      report: row.report,
      media:
        row.mediaPublished === null || row.mediaFlag === null
          ? null
          : { published: row.mediaPublished, flag: row.mediaFlag },
      user: row.userId === null ? null : { bannedAt: row.userBannedAt, anonymizedAt: row.userAnonymizedAt },
    };
  }

  /** Resolves an open report (atomic: of two at once, one wins); null when it is not open (or unknown). */
  async resolveOpen(id: string, resolution: Resolution): Promise<ReportRow | null> {
    const [row] = await this.db
      .update(reports)
      .set({ status: 'resolved', ...resolution })
      .where(and(eq(reports.id, id), eq(reports.status, 'open')))
      .returning();
    return row ?? null;
  }

  /** Resolves every other open report on the same target with the same resolution; the rows resolved. */
  resolveOthersOnTarget(report: ReportRow, resolution: Resolution): Promise<ReportRow[]> {
    return this.db
      .update(reports)
      .set({ status: 'resolved', ...resolution })
      .where(
        and(
          eq(reports.targetKind, report.targetKind),
          eq(reports.targetId, report.targetId),
          eq(reports.status, 'open'),
          ne(reports.id, report.id),
        ),
      )
      .returning();
  }

  /** limit + 1 rows of a page of the admin list. */
  list(filter: ReportFilter, page: PageRequest): Promise<ReportRow[]> {
    const { where, orderBy } = keyset(adminReportsKeyset, page);
    return this.db
      .select()
      .from(reports)
      .where(and(filterOf(filter), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async count(filter: ReportFilter): Promise<number> {
    const [row] = await this.db.select({ count: sql<number>`count(*)::int` }).from(reports).where(filterOf(filter));
    return row?.count ?? 0;
  }

  async countAgainst(kind: ReportKind, targetId: string): Promise<ReportCounts> {
    const [row] = await this.db
      .select({
        open: sql<number>`(count(*) FILTER (WHERE ${reports.status} = 'open'))::int`,
        total: sql<number>`count(*)::int`,
      })
      .from(reports)
      .where(and(eq(reports.targetKind, kind), eq(reports.targetId, targetId)));
    return { open: row?.open ?? 0, total: row?.total ?? 0 };
  }

  /**
   * An erased account's former username, wherever a reporter wrote it in `details` (any case), becomes
   * its anonymous name: the rows to change are found by a case-insensitive match, the text rewritten
   * by the caller's rule (the same as for comments' mentions).
   */
  async detailsNaming(formerUsername: string): Promise<{ id: string; details: string }[]> {
    const rows = await this.db
      .select({ id: reports.id, details: reports.details })
      .from(reports)
      .where(sql`strpos(lower(${reports.details}), lower(${formerUsername})) > 0`);
    return rows.filter((row): row is { id: string; details: string } => row.details !== null);
  }

  /**
   * An erased account (`user.erasing`): the reports it made, and the reports about it or its content
   * (their target is gone with it, so there is nothing left to review).
   */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(reports).where(
      sql`${reports.reporterId} = ${userId} OR ${reports.targetUserId} = ${userId}
            OR (${reports.targetKind} = 'user' AND ${reports.targetId} = ${userId})`,
    );
  }

  async setDetails(id: string, details: string): Promise<void> {
    await this.db.update(reports).set({ details }).where(eq(reports.id, id));
  }

  /** Reports against a user: of the user, of their media and of their comments. */
  async countAgainstUser(userId: string): Promise<ReportCounts> {
    const [row] = await this.db
      .select({
        open: sql<number>`(count(*) FILTER (WHERE ${reports.status} = 'open'))::int`,
        total: sql<number>`count(*)::int`,
      })
      .from(reports)
      .where(eq(reports.targetUserId, userId));
    return { open: row?.open ?? 0, total: row?.total ?? 0 };
  }

  /** The data export's reports made by a user (without the moderators' internal note), in keyset batches by id. */
  async exportRows(reporterId: string, after: string | null, limit: number) {
    const { note: _internal, ...columns } = getTableColumns(reports);
    return this.db
      .select(columns)
      .from(reports)
      .where(and(eq(reports.reporterId, reporterId), after === null ? undefined : gt(reports.id, after)))
      .orderBy(reports.id)
      .limit(limit);
  }
}
