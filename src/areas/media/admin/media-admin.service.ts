/** Media moderation for operators: publication, flags, counters, deletion and the orphan-file sweep. */
import type { MediaStorage } from '../../../adapters/storage/index.ts';
import type { AuditLog } from '../../../platform/audit/audit-log.ts';
import type { Clock } from '../../../platform/clock.ts';
import { returned } from '../../../platform/db/returned.ts';
import type { Transactions } from '../../../platform/db/transactions.ts';
import type { EventBus } from '../../../platform/events/domain-events.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { parseUuidOrHex } from '../../../platform/ids/ids.ts';
import { type DecisionContext, directAction } from '../../../platform/moderation/decision-context.ts';
import type { UsersService } from '../../accounts/public.ts';
import { type ContentWarningRequest, checkedContentWarning } from '../content-warnings.ts';
import type { MediaRepository } from '../media.repository.ts';
import { MediaDeletion } from '../media-deletion.ts';
import { mediaFlags } from '../media-flags.ts';
import { mediaHexOfKey, storagePrefixes } from '../media-storage-keys.ts';
import type { MediaRow } from '../tables.ts';

export const defaultOrphanGraceHours = 24;

/** Recounts some of a media's counters from the rows that owning area keeps (e.g. likes from reactions). */
export type CounterSource = (mediaId: string) => Promise<Partial<Recounted>>;

export interface MediaAdminServiceDeps {
  transactions: Transactions;
  audit: AuditLog;
  repository: MediaRepository;
  storage: MediaStorage;
  clock: Clock;
  events: EventBus;
  users: UsersService;
}

export class MediaAdminService {
  readonly #deps: MediaAdminServiceDeps;

  readonly #counterSources: CounterSource[] = [];

  readonly #deletion: MediaDeletion;

  constructor(deps: MediaAdminServiceDeps) {
    this.#deps = deps;
    this.#deletion = new MediaDeletion(deps);
  }

  /** Areas that keep a counter on media (reactions, bookmarks) say how to recount it from their rows. */
  addCounterSource(source: CounterSource): void {
    this.#counterSources.push(source);
  }

  /** Any media (post, avatar or cover); 404 when unknown. */
  async require(id: string): Promise<MediaRow> {
    const row = await this.#deps.repository.findById(id);
    if (row === null) throw new AppError('notFound', { source: { parameter: 'hex' } });
    return row;
  }

  /** Records an admin action on a media in the transaction in progress. */
  #audit(action: string, id: string, payload: Record<string, unknown>): Promise<void> {
    return this.#deps.audit.record({ actor: 'admin', action, targetType: 'media', targetId: id, payload });
  }

  async setPublished(id: string, published: boolean): Promise<MediaRow> {
    return this.#deps.transactions.run(async () => {
      await this.require(id);
      const row = returned(
        await this.#deps.repository.update(id, { published, updatedAt: this.#deps.clock.now() }),
        'media.update',
      );
      await this.#deps.events.publish('media.changed', { media: row });
      await this.#alongWithPost(row, { published });
      await this.#audit('media.published', id, { published });
      return row;
    });
  }

  /**
   * The one path of every flag change (the admin route, a report's action, an appeal's reversal).
   * Hiding a media that was not hidden is a moderation decision its owner is told of and may appeal
   * (`media.hiddenByModerator`, with `context`: the report and note, if any).
   */
  async setFlag(id: string, flag: number, context: DecisionContext = directAction): Promise<MediaRow> {
    return this.#deps.transactions.run(async () => {
      const before = await this.require(id);
      const row = returned(
        await this.#deps.repository.update(id, { flag, updatedAt: this.#deps.clock.now() }),
        'media.update',
      );
      await this.#deps.events.publish('media.changed', { media: row });
      await this.#alongWithPost(row, { flag });
      if (flag >= mediaFlags.hidden && before.flag < mediaFlags.hidden) {
        await this.#deps.events.publish('media.hiddenByModerator', { media: row, previousFlag: before.flag, context });
      }
      await this.#audit('media.flag', id, { flag });
      return row;
    });
  }

  /**
   * Moderation of a post acts on its lead (docs/api.md, Posts): a lead's publication or flag is set on
   * every other photo of its post too, so hiding the post hides all its photos, files included.
   */
  async #alongWithPost(lead: MediaRow, patch: { published?: boolean; flag?: number }): Promise<void> {
    if (lead.postId !== lead.id) return;
    const members = await this.#deps.repository.updateMembers(lead.id, { ...patch, updatedAt: this.#deps.clock.now() });
    for (const member of members) await this.#deps.events.publish('media.changed', { media: member });
  }

  /**
   * A moderator imposes a content warning (content-warnings.ts) on any media, which its author may then
   * neither change nor lift, or lifts it (`sensitive: false`), which leaves it to the author again.
   */
  async setContentWarning(id: string, request: ContentWarningRequest): Promise<MediaRow> {
    const warning = checkedContentWarning(request);
    return this.#deps.transactions.run(async () => {
      await this.require(id);
      const row = returned(
        await this.#deps.repository.update(id, {
          ...warning,
          contentWarningByModerator: warning.authorSensitive,
          updatedAt: this.#deps.clock.now(),
        }),
        'media.update',
      );
      await this.#deps.events.publish('media.changed', { media: row });
      await this.#audit('media.contentWarning', id, {
        sensitive: warning.authorSensitive,
        contentWarning: warning.contentWarning,
      });
      return row;
    });
  }

  async recomputeStats(id: string): Promise<{ before: Counters; after: Counters; row: MediaRow }> {
    // The media row is locked as reactions and bookmarks lock it, so none commits between count and write.
    const { before, row } = await this.#deps.transactions.run(async () => {
      await this.#deps.repository.lockRow(id);
      const before = await this.require(id);
      const counted: Recounted = { likesCount: 0, dislikesCount: 0, bookmarksCount: 0, commentsCount: 0 };
      for (const source of this.#counterSources) Object.assign(counted, await source(id));
      const updated = returned(
        await this.#deps.repository.update(id, { ...counted, updatedAt: this.#deps.clock.now() }),
        'media.update',
      );
      if (updated.likesCount !== before.likesCount)
        await this.#deps.events.publish('media.likesChanged', { mediaId: id });
      await this.#audit('media.recomputeStats', id, { before: countersOf(before), after: countersOf(updated) });
      return { before, row: updated };
    });
    return { before: countersOf(before), after: countersOf(row), row };
  }

  /** Deletes a media as its owner's DELETE does (media-deletion.ts), audited; 404 when unknown. */
  async delete(id: string): Promise<MediaRow> {
    return this.#deps.transactions.run(async () => {
      const deleted = await this.#deletion.one(id);
      if (deleted === null) throw new AppError('notFound', { source: { parameter: 'hex' } });
      await this.#audit('media.delete', id, { ownerId: deleted.ownerId, kind: deleted.kind });
      return deleted;
    });
  }

  /**
   * Deletes every media of an owner (an erased account), rows in the transaction in progress and
   * files once it commits (a file left behind by a failure is removed by cleanup-orphan-files).
   */
  async deleteAllOf(ownerId: string): Promise<number> {
    return (await this.#deletion.allOf(ownerId)).length;
  }

  /** Deletes stored files whose media row is gone and that are older than the grace period. */
  async cleanupOrphanFiles(graceHours: number) {
    const cutoff = this.#deps.clock.now().getTime() - graceHours * 3_600_000;
    const removed: string[] = [];
    let scanned = 0;
    let keptYoung = 0;
    for (const prefix of storagePrefixes) {
      const batch: { key: string; id: string }[] = [];
      const flush = async () => {
        const existing = await this.#deps.repository.existingIds(batch.map((item) => item.id));
        for (const item of batch) {
          if (existing.has(item.id)) continue;
          await this.#deps.storage.delete(item.key);
          removed.push(item.key);
        }
        batch.length = 0;
      };
      for await (const object of this.#deps.storage.list(prefix)) {
        scanned += 1;
        const hex = mediaHexOfKey(object.key);
        const id = hex === null ? null : parseUuidOrHex(hex);
        if (id === null) continue; // not a file this area wrote: leave it alone
        if (object.modifiedAt.getTime() > cutoff) {
          keptYoung += 1;
          continue;
        }
        batch.push({ key: object.key, id });
        if (batch.length >= 200) await flush();
      }
      await flush();
    }
    await this.#deps.audit.record({
      actor: 'admin',
      action: 'jobs.cleanupOrphanFiles',
      targetType: 'job',
      targetId: 'cleanup-orphan-files',
      payload: { graceHours, removedCount: removed.length },
    });
    return { scanned, removed, removedCount: removed.length, keptWithinGrace: keptYoung, graceHours };
  }
}

type Counters = Pick<MediaRow, 'likesCount' | 'dislikesCount' | 'bookmarksCount' | 'commentsCount'>;

const countersOf = (row: MediaRow): Counters => ({
  likesCount: row.likesCount,
  dislikesCount: row.dislikesCount,
  bookmarksCount: row.bookmarksCount,
  commentsCount: row.commentsCount,
});
type Recounted = Counters;
