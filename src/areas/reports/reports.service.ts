/**
 * Filing reports: the target must exist and be visible to the reporter (else 404), nobody reports
 * themselves or their own content (422 cannotReportSelf), and a reporter has at most one open report
 * per target (409 alreadyReported, exact under concurrency). Also the counts other areas read
 * (user administration, statistics).
 */

import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { newId } from '../../platform/ids/ids.ts';
import { erasedAccountName, renameName } from '../../platform/text/mentions.ts';
import type { UsersService } from '../accounts/public.ts';
import { isActiveUser } from '../accounts/read-model.ts';
import type { MediaService } from '../media/public.ts';
import type { ReportCounts, ReportsRepository } from './reports.repository.ts';
import type { ReportKind, ReportReason, ReportRow } from './tables.ts';
import type { ReportableComments } from './targets.ts';

/** The longest `details` text, in characters (docs/api.md). */
export const maxReportDetailsLength = 1000;

/** The path parameter that names each kind of target, for error sources. */
export const targetParameters: Record<ReportKind, string> = { media: 'mediaId', user: 'userHex', comment: 'commentId' };

export interface ReportInput {
  reason: ReportReason;
  details?: string | null;
}

export interface ReportsServiceDeps {
  repository: ReportsRepository;
  media: MediaService;
  users: UsersService;
  comments: ReportableComments;
  clock: Clock;
}

export class ReportsService {
  readonly #deps: ReportsServiceDeps;

  constructor(deps: ReportsServiceDeps) {
    this.#deps = deps;
  }

  /** Files a report on a target; `locale` is the request's, for the outcome mail. */
  async file(reporterId: string, kind: ReportKind, targetId: string, input: ReportInput, locale: Locale) {
    const parameter = targetParameters[kind];
    const targetUserId = await this.#ownerOfVisibleTarget(kind, targetId, reporterId);
    if (targetUserId === null) throw new AppError('notFound', { source: { parameter } });
    if (targetUserId === reporterId) throw new AppError('cannotReportSelf', { source: { parameter } });
    const details = input.details?.trim() || null;
    const row = await this.#deps.repository.insert({
      id: newId(),
      reporterId,
      targetKind: kind,
      targetId,
      targetUserId,
      reason: input.reason,
      details,
      locale,
      createdAt: this.#deps.clock.now(),
    });
    if (row === null) throw new AppError('alreadyReported', { source: { parameter } });
    return row;
  }

  /** The user the target belongs to, when the target exists and the reporter may see it; else null. */
  async #ownerOfVisibleTarget(kind: ReportKind, targetId: string, reporterId: string): Promise<string | null> {
    switch (kind) {
      case 'media':
        return (await this.#deps.media.findVisibleMedia(targetId, reporterId))?.ownerId ?? null;
      case 'user': {
        // Erased, banned and deleting accounts are out of public view: there is nothing left to report.
        // So is an account across a block, either way (accounts' rule).
        const user = await this.#deps.users.find(targetId);
        if (user === null || !isActiveUser(user)) return null;
        return (await this.#deps.users.blockedEitherWay(reporterId, user.id)) ? null : user.id;
      }
      case 'comment':
        return (await this.#deps.comments.findReportable(targetId, reporterId))?.authorId ?? null;
    }
  }

  /** An erased account: its former username, wherever reporters wrote it in details, becomes its new name. */
  async eraseFormerUsername(formerUsername: string, username: string): Promise<void> {
    for (const { id, details } of await this.#deps.repository.detailsNaming(formerUsername)) {
      const renamed = renameName(details, formerUsername, username);
      if (renamed !== details) await this.#deps.repository.setDetails(id, renamed);
    }
  }

  /** An account deleted by its owner (`user.erasing`): its name in others' report details, then its reports. */
  async eraseUser(userId: string): Promise<void> {
    const user = await this.#deps.users.find(userId);
    if (user?.username) await this.eraseFormerUsername(user.username, erasedAccountName);
    await this.#deps.repository.eraseUser(userId);
  }

  /** How many reports a target has: open now, and ever. */
  countAgainst(kind: ReportKind, targetId: string): Promise<ReportCounts> {
    return this.#deps.repository.countAgainst(kind, targetId);
  }

  /** Reports against a user and everything of theirs (their media, their comments). */
  countAgainstUser(userId: string): Promise<ReportCounts> {
    return this.#deps.repository.countAgainstUser(userId);
  }

  find(id: string): Promise<ReportRow | null> {
    return this.#deps.repository.findById(id);
  }
}
