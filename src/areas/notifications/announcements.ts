/**
 * The notifications other areas' events announce, dispatched in the producing transaction (the
 * notification commits or rolls back with the follow). Gamification dispatches its own kinds
 * (badge.earned, user.level.up, user.title.up) through the dispatcher, since it knows their data.
 */
import type { EventBus } from '../../platform/events/domain-events.ts';
import '../accounts/events.ts';
import { displayNameOf } from '../accounts/public.ts';
import { dedupKeys } from './kinds.ts';
import type { NotificationDispatcher } from './notification-dispatcher.ts';

export function subscribeAnnouncements(events: EventBus, dispatcher: NotificationDispatcher): void {
  events.subscribe(
    'follow.created',
    'inTransaction',
    'notifications.followReceived',
    async ({ follower, followee }) => {
      await dispatcher.dispatch(
        followee.id,
        'follow.received',
        { actorId: follower.id, actorUsername: follower.username, actorDisplayName: displayNameOf(follower) },
        dedupKeys.followReceived(follower.id),
      );
    },
  );
  // While the actor of follow notifications is hidden (banned, being deleted), the feed shows them unlinked.
  events.subscribe('user.banned', 'inTransaction', 'notifications.hideActor', async ({ userId }) => {
    await dispatcher.setActorHidden(userId, true);
  });
  events.subscribe('user.unbanned', 'inTransaction', 'notifications.showActor', async ({ userId }) => {
    await dispatcher.setActorHidden(userId, false);
  });
  // An erased account's name frozen in follow notifications becomes its anonymous name.
  events.subscribe(
    'user.anonymized',
    'inTransaction',
    'notifications.renameErasedActor',
    async ({ userId, username }) => {
      await dispatcher.renameActor(userId, username, username);
    },
  );
}
