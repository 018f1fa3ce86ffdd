/**
 * Report handling for operators: the list, one report with its target's current state, and the
 * resolution. A resolution and its action (hide the media, delete the comment, ban the target's
 * user) happen in one transaction with the audit entry, so a failing action leaves the report open.
 * Actioning a report resolves the other open reports on the same target with it; dismissing resolves
 * that report only. Each resolved report's reporter is mailed the outcome: filed in that transaction.
 */

import type { AuditLog } from '../../../platform/audit/audit-log.ts';
import type { Clock } from '../../../platform/clock.ts';
import { type Page, pageOf } from '../../../platform/db/page.ts';
import type { PageRequest } from '../../../platform/db/page-request.ts';
import type { Transactions } from '../../../platform/db/transactions.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { parseClientTime } from '../../../platform/http/time.ts';
import type { DecisionContext } from '../../../platform/moderation/decision-context.ts';
import { visibleText } from '../../../platform/text/visible-text.ts';
import type { MediaAdminService } from '../../media/public.ts';
import { mediaFlags } from '../../media/public.ts';
import type { OutcomeMails } from '../outcome-mails.ts';
import {
  adminReportsKeyset,
  type ReportCounts,
  type ReportFilter,
  type ReportsRepository,
  type Resolution,
} from '../reports.repository.ts';
import type { ReportAction, ReportKind, ReportResolution, ReportRow } from '../tables.ts';
import type { ReportableComments, UserBans } from '../targets.ts';

/** The longest note and ban reason, in characters (docs/api.md). */
export const maxNoteLength = 2000;
export const maxBanReasonLength = 500;

/** The kinds of report each action fits. */
export const actionTargets: Record<ReportAction, readonly ReportKind[]> = {
  hideMedia: ['media'],
  deleteComment: ['comment'],
  banUser: ['media', 'user', 'comment'],
};

export interface ResolveInput {
  resolution: ReportResolution;
  note?: string | null;
  action?: ReportAction;
  banReason?: string;
  /** RFC 3339; absent or null: a ban without end. */
  banUntil?: string | null;
}

/** What the target looks like now; fields of other kinds are absent. */
export interface TargetState {
  /** The target is gone (or, for a comment, shows as a deleted placeholder). */
  deleted: boolean;
  published?: boolean;
  flag?: number;
  banned?: boolean;
  anonymized?: boolean;
  authorBanned?: boolean;
  /** A comment's text, for the moderator to judge; null once deleted. */
  body?: string | null;
}

export interface ReportDetail {
  report: ReportRow;
  target: TargetState;
  targetReports: ReportCounts;
}

export interface ResolveResult {
  report: ReportRow;
  /** Other open reports on the same target, resolved with it. */
  alsoResolved: ReportRow[];
}

const notApplicable = (detail: string) =>
  new AppError('actionNotApplicable', { source: { pointer: '/action' }, detail });
const invalid = (pointer: string, detail: string) => new AppError('validationFailed', { source: { pointer }, detail });

export interface ReportHandlingServiceDeps {
  transactions: Transactions;
  audit: AuditLog;
  repository: ReportsRepository;
  /** What a resolution acts on: media, comments, and users' bans. */
  mediaAdmin: MediaAdminService;
  comments: ReportableComments;
  bans: UserBans;
  mails: OutcomeMails;
  clock: Clock;
}

export class ReportHandlingService {
  readonly #deps: ReportHandlingServiceDeps;

  constructor(deps: ReportHandlingServiceDeps) {
    this.#deps = deps;
  }

  async list(filter: ReportFilter, page: PageRequest): Promise<{ page: Page<ReportRow>; total: number }> {
    const [rows, total] = await Promise.all([
      this.#deps.repository.list(filter, page),
      this.#deps.repository.count(filter),
    ]);
    return { page: pageOf(rows, page, adminReportsKeyset), total };
  }

  async detail(id: string): Promise<ReportDetail> {
    const found = await this.#deps.repository.findWithTarget(id);
    if (found === null) throw new AppError('notFound', { source: { parameter: 'hex' } });
    const { report } = found;
    const [target, targetReports] = await Promise.all([
      this.#targetState(found),
      this.#deps.repository.countAgainst(report.targetKind, report.targetId),
    ]);
    return { report, target, targetReports };
  }

  async #targetState({ report, media, user }: NonNullable<Awaited<ReturnType<ReportsRepository['findWithTarget']>>>) {
    switch (report.targetKind) {
      case 'media':
        return media === null ? { deleted: true } : { deleted: false, published: media.published, flag: media.flag };
      case 'user':
        return user === null
          ? { deleted: true }
          : { deleted: false, banned: user.bannedAt !== null, anonymized: user.anonymizedAt !== null };
      case 'comment': {
        const comment = await this.#deps.comments.findForModeration(report.targetId);
        if (comment === null) return { deleted: true };
        return {
          deleted: comment.deleted,
          authorBanned: comment.authorBanned,
          body: comment.deleted ? null : comment.body,
        };
      }
    }
  }

  /** Resolves an open report (409 reportAlreadyResolved otherwise), with its action, in one transaction. */
  async resolve(id: string, input: ResolveInput): Promise<ResolveResult> {
    const found = await this.#deps.repository.findById(id);
    if (found === null) throw new AppError('notFound', { source: { parameter: 'hex' } });
    if (found.status !== 'open') throw new AppError('reportAlreadyResolved', { source: { parameter: 'hex' } });
    const banUntil = this.#checkAction(found, input);
    const resolution: Resolution = {
      resolution: input.resolution,
      action: input.action ?? null,
      note: input.note?.trim() || null,
      resolvedAt: this.#deps.clock.now(),
    };
    return this.#deps.transactions.run(async () => {
      // Of two resolutions at once, one wins here; the other is 409 and does nothing.
      const report = await this.#deps.repository.resolveOpen(id, resolution);
      if (report === null) throw new AppError('reportAlreadyResolved', { source: { parameter: 'hex' } });
      if (input.action !== undefined) await this.#act(report, input.action, input.banReason, banUntil);
      const alsoResolved =
        input.resolution === 'actioned' ? await this.#deps.repository.resolveOthersOnTarget(report, resolution) : [];
      // Ids and enums only: no names, addresses or free text of users in the audit log.
      await this.#deps.audit.record({
        actor: 'admin',
        action: 'report.resolve',
        targetType: 'report',
        targetId: report.id,
        payload: {
          resolution: report.resolution,
          action: report.action,
          targetKind: report.targetKind,
          targetId: report.targetId,
          targetUserId: report.targetUserId,
          reason: report.reason,
          alsoResolved: alsoResolved.map((row) => row.id),
        },
      });
      await this.#deps.mails.file([report, ...alsoResolved]);
      return { report, alsoResolved };
    });
  }

  /** Refuses what does not fit before anything is written; returns the ban's end, if any. */
  #checkAction(report: ReportRow, input: ResolveInput): Date | null {
    if (input.action === undefined) {
      if (input.banReason !== undefined) throw invalid('/banReason', 'banReason goes with the action banUser');
      if (input.banUntil !== undefined) throw invalid('/banUntil', 'banUntil goes with the action banUser');
      return null;
    }
    if (input.resolution === 'dismissed') throw invalid('/action', 'a dismissed report takes no action');
    if (!actionTargets[input.action].includes(report.targetKind)) {
      throw notApplicable(`${input.action} does not apply to a ${report.targetKind} report`);
    }
    if (input.action !== 'banUser') {
      if (input.banReason !== undefined) throw invalid('/banReason', 'banReason goes with the action banUser');
      if (input.banUntil !== undefined) throw invalid('/banUntil', 'banUntil goes with the action banUser');
      return null;
    }
    if (input.banReason !== undefined && visibleText(input.banReason) === null) {
      throw invalid('/banReason', 'must hold visible text');
    }
    if (input.banUntil === undefined || input.banUntil === null) return null;
    const until = parseClientTime(input.banUntil);
    if (until === null) throw invalid('/banUntil', 'must be an RFC 3339 timestamp between the years 1 and 9999');
    if (until.getTime() <= this.#deps.clock.now().getTime()) throw invalid('/banUntil', 'must be in the future');
    return until;
  }

  /**
   * The action, through the owning area's service (each joins this transaction), with what the user it
   * touches is told: the report's reason and the moderator's note (the resolution's, else a ban's reason
   * when the operator wrote one).
   */
  async #act(report: ReportRow, action: ReportAction, banReason: string | undefined, banUntil: Date | null) {
    const ownBanReason = banReason === undefined ? null : visibleText(banReason);
    const context: DecisionContext = {
      reportId: report.id,
      reportReason: report.reason,
      note: report.note ?? (action === 'banUser' ? ownBanReason : null),
    };
    switch (action) {
      case 'hideMedia':
        try {
          await this.#deps.mediaAdmin.setFlag(report.targetId, mediaFlags.hidden, context);
        } catch (error) {
          if (error instanceof AppError && error.code === 'notFound') throw notApplicable('the media no longer exists');
          throw error;
        }
        return;
      case 'deleteComment':
        if (!(await this.#deps.comments.removeAsModerator(report.targetId, context))) {
          throw notApplicable('the comment is already deleted or gone');
        }
        return;
      case 'banUser': {
        if (report.targetUserId === null) throw notApplicable('the user no longer exists');
        const reason = ownBanReason ?? `report: ${report.reason}`;
        try {
          await this.#deps.bans.ban(report.targetUserId, { reason, until: banUntil }, 'admin', context);
        } catch (error) {
          if (error instanceof AppError && error.code === 'notFound') throw notApplicable('the user no longer exists');
          throw error;
        }
        return;
      }
    }
  }
}
