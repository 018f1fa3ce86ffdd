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

export class ReportsService {
  private readonly repository: ReportsRepository;
  private readonly media: MediaService;
  private readonly users: UsersService;
  private readonly comments: ReportableComments;
  private readonly clock: Clock;

  constructor(
    repository: ReportsRepository,
    media: MediaService,
    users: UsersService,
    comments: ReportableComments,
    clock: Clock,
  ) {
    this.repository = repository;
    this.media = media;
    this.users = users;
    this.comments = comments;
    this.clock = clock;
  }

  /** Files a report on a target; `locale` is the request's, for the outcome mail. */
  async file(reporterId: string, kind: ReportKind, targetId: string, input: ReportInput, locale: Locale) {
    const parameter = targetParameters[kind];
    const targetUserId = await this.#ownerOfVisibleTarget(kind, targetId, reporterId);
    if (targetUserId === null) throw new AppError('notFound', { source: { parameter } });
    if (targetUserId === reporterId) throw new AppError('cannotReportSelf', { source: { parameter } });
    const details = input.details?.trim() || null;
    const row = await this.repository.insert({
      id: newId(),
      reporterId,
      targetKind: kind,
      targetId,
      targetUserId,
      reason: input.reason,
      details,
      locale,
      createdAt: this.clock.now(),
    });
    if (row === null) throw new AppError('alreadyReported', { source: { parameter } });
    return row;
  }

  /** The user the target belongs to, when the target exists and the reporter may see it; else null. */
  async #ownerOfVisibleTarget(kind: ReportKind, targetId: string, reporterId: string): Promise<string | null> {
    switch (kind) {
      case 'media':
        return (await this.media.findVisibleMedia(targetId, reporterId))?.ownerId ?? null;
      case 'user': {
        // Erased, banned and deleting accounts are out of public view: there is nothing left to report.
        const user = await this.users.find(targetId);
        return user !== null && isActiveUser(user) ? user.id : null;
      }
      case 'comment':
        return (await this.comments.findReportable(targetId, reporterId))?.authorId ?? null;
    }
  }

  /** An erased account: its former username, wherever reporters wrote it in details, becomes its new name. */
  async eraseFormerUsername(formerUsername: string, username: string): Promise<void> {
    for (const { id, details } of await this.repository.detailsNaming(formerUsername)) {
      const renamed = renameName(details, formerUsername, username);
      if (renamed !== details) await this.repository.setDetails(id, renamed);
    }
  }

  /** An account deleted by its owner (`user.erasing`): its name in others' report details, then its reports. */
  async eraseUser(userId: string): Promise<void> {
    const user = await this.users.find(userId);
    if (user?.username) await this.eraseFormerUsername(user.username, erasedAccountName);
    await this.repository.eraseUser(userId);
  }

  /** How many reports a target has: open now, and ever. */
  countAgainst(kind: ReportKind, targetId: string): Promise<ReportCounts> {
    return this.repository.countAgainst(kind, targetId);
  }

  /** Reports against a user and everything of theirs (their media, their comments). */
  countAgainstUser(userId: string): Promise<ReportCounts> {
    return this.repository.countAgainstUser(userId);
  }

  /** Reports filed in all, since each date, and open now (statistics). */
  stats(since: { day: Date; week: Date; month: Date }) {
    return this.repository.stats(since);
  }

  find(id: string): Promise<ReportRow | null> {
    return this.repository.findById(id);
  }
}
