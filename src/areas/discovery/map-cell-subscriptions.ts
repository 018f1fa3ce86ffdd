/**
 * The media writes the map's cells follow, each in the producer's transaction, so a media's change
 * and its cells commit (or roll back) together; and likes, which move the cells' representatives
 * once they commit. Media's own subscribers to a ban run first (media is built before discovery): the
 * cells read the media's `owner_banned` as the ban left it.
 */
import type { EventBus } from '../../platform/events/domain-events.ts';
import '../accounts/events.ts';
import '../media/events.ts';
import type { MapCellCountsService } from './map-cell-counts.service.ts';

export function subscribeMapCells(events: EventBus, counts: MapCellCountsService): void {
  for (const event of ['media.published', 'media.changed', 'media.deleted'] as const) {
    events.subscribe(event, 'inTransaction', `discovery.mapCells.${event}`, async ({ media }) => {
      await counts.syncMedia([media.id]);
    });
  }
  // After the like commits, so the map's locks are never taken while the liker's, the owner's and the
  // media's rows are held (lockCellsItsLikesMove says which it takes); a move that fails (a lock waited
  // for too long) is tried again by the job after-commit-retries.
  events.subscribeRetried(
    'media.likesChanged',
    'discovery.mapCells.likes',
    ({ mediaId }) => mediaId,
    (mediaId) => counts.followLikes(mediaId),
  );
  // A ban or a confirmed account deletion takes the owner's media off the map; their end puts them back.
  for (const event of ['user.banned', 'user.unbanned'] as const) {
    events.subscribe(event, 'inTransaction', `discovery.mapCells.${event}`, async ({ userId }) => {
      await counts.syncMediaOf(userId);
    });
  }
}
