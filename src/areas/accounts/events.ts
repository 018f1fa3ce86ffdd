/** What accounts tell other areas. */
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { UserRow } from './tables.ts';

declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /** A person registered (not an operator-created account); `locale` is the request's. */
    'user.registered': { user: UserRow; locale: Locale };
    /**
     * What others see of a user changed: username, nickname or settings (discoverable). The ban and
     * erasure writes publish it too when they land. `user` is the row after the change.
     */
    'user.changed': { user: UserRow };
  }
}
