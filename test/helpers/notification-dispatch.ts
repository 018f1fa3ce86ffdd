/** Notifications made through the one write path (the dispatcher), as the areas that announce them do. */
import type { TestApp } from './app.ts';
import type { TestUser } from './factories.ts';

/** `actor` followed `recipient` (displayed as `actorName`); with a dedup key, a repeat inside the window refreshes it. */
export const dispatchFollow = (
  t: TestApp,
  recipient: TestUser,
  actor: TestUser,
  actorName: string,
  dedupKey: string | null = null,
) =>
  t.services.areas.notifications.dispatcher.dispatch(
    recipient.id,
    'follow.received',
    { actorId: actor.id, actorUsername: actor.username, actorDisplayName: actorName },
    dedupKey,
  );

/** `recipient` reached `level`. */
export const dispatchLevelUp = (t: TestApp, recipient: TestUser, level: number) =>
  t.services.areas.notifications.dispatcher.dispatch(
    recipient.id,
    'user.level.up',
    { level, previousLevel: level - 1, experience: 50 * level * (level + 1) },
    null,
  );
