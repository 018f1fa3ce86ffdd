/** What media tell other areas. */
import type { MediaRow } from './tables.ts';

declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /** A post was published; `publishedCount`: the owner's published posts, this one included. */
    'media.published': { media: MediaRow; publishedCount: number };
  }
}
