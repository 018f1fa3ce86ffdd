/** Notifications made as the announcing areas make them (through the dispatcher), for the push tests. */
import { dedupKeys } from '../../src/areas/notifications/public.ts';
import type { TestApp } from './app.ts';
import type { TestUser } from './factories.ts';

/** `follow.received` for `recipient`, from `from` shown as `displayName`. */
export const dispatchFollow = (t: TestApp, recipient: TestUser, from: TestUser, displayName = 'Ana') =>
  t.services.areas.notifications.dispatcher.dispatch(
    recipient.id,
    'follow.received',
    { actorId: from.id, actorUsername: from.username, actorDisplayName: displayName },
    dedupKeys.followReceived(from.id),
  );

/** `user.level.up` to `level` for `recipient`. */
export const dispatchLevelUp = (t: TestApp, recipient: TestUser, level: number) =>
  t.services.areas.notifications.dispatcher.dispatch(
    recipient.id,
    'user.level.up',
    { level, previousLevel: level - 1, experience: 100 * level },
    dedupKeys.levelUp(recipient.id, level),
  );
