/** The caller's feed and preferences: list, count, read, read all, delete, preference matrix. */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { FilterResult, FiltersService } from '../filters/public.ts';
import { notificationFilterTextOf } from '../filters/read-model.ts';
import type { FeedItem } from './feed-statements.ts';
import type { NotificationsRepository } from './notifications.repository.ts';
import { type PreferenceMatrix, parsePreferencePatch, preferenceMatrix } from './preference-patch.ts';
import type { FeedChanges } from './stream/feed-changes.ts';

export interface NotificationsServiceDeps {
  repository: NotificationsRepository;
  /** The owner's keyword filters (context notifications). */
  filters: FiltersService;
  clock: Clock;
  /** Told of every read and deletion, for the live streams' unread count (after the commit). */
  changes: FeedChanges;
}

export class NotificationsService {
  readonly #deps: NotificationsServiceDeps;

  constructor(deps: NotificationsServiceDeps) {
    this.#deps = deps;
  }

  /**
   * A page of the feed and the number of rows matching the same filter (hidden ones counted: the counters
   * are kept per owner, whatever their filters); what the owner's filters hide is left out of the page,
   * what they warn about carries `filtered` (absent when the owner has no warn filter).
   */
  async list(
    ownerId: string,
    unreadOnly: boolean,
    page: PageRequest,
  ): Promise<{ rows: Array<FeedItem & { filtered?: FilterResult[] }>; total: number }> {
    const { filters } = this.#deps;
    const hiddenBy = await filters.hiddenFor(ownerId, 'notifications');
    const { rows, total } = await this.#deps.repository.feedPage(ownerId, unreadOnly, page, hiddenBy);
    return {
      rows: await filters.warn(ownerId, 'notifications', rows, (row) => notificationFilterTextOf(row.data)),
      total,
    };
  }

  unreadCount(ownerId: string): Promise<number> {
    return this.#deps.repository.unreadCount(ownerId);
  }

  async markRead(ownerId: string, id: string) {
    const row = await this.#deps.repository.markRead(ownerId, id, this.#deps.clock.now());
    if (row === null) throw new AppError('notFound', { source: { parameter: 'id' } });
    await this.#deps.changes.changed(ownerId);
    return row;
  }

  async markAllRead(ownerId: string): Promise<number> {
    const affected = await this.#deps.repository.markAllRead(ownerId, this.#deps.clock.now());
    if (affected > 0) await this.#deps.changes.changed(ownerId);
    return affected;
  }

  async delete(ownerId: string, id: string): Promise<void> {
    if (!(await this.#deps.repository.delete(ownerId, id)))
      throw new AppError('notFound', { source: { parameter: 'id' } });
    await this.#deps.changes.changed(ownerId);
  }

  async preferences(userId: string): Promise<PreferenceMatrix> {
    return preferenceMatrix(await this.#deps.repository.preferenceOverrides(userId));
  }

  async updatePreferences(userId: string, body: unknown): Promise<PreferenceMatrix> {
    await this.#deps.repository.upsertPreferences(userId, parsePreferencePatch(body));
    return this.preferences(userId);
  }
}
