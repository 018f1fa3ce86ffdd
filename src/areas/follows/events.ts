/** What follows tell other areas. */
import type { UserRow } from '../accounts/read-model.ts';

declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /** `follower` now follows `followee`; `firstTime` unless this pair followed before; counts after the change. */
    'follow.created': { follower: UserRow; followee: UserRow; firstTime: boolean; followersCount: number };
  }
}
