/** What accounts tell other areas. */
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { UserRow } from './tables.ts';

declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /** A person registered (not an operator-created account); `locale` is the request's. */
    'user.registered': { user: UserRow; locale: Locale };
  }
}
