/**
 * The kinds of things a share link may open (a post, a bookmark collection, a trip), by name.
 * An area makes its things shareable by registering a kind here, through share links' face
 * (`shareLinks.targets.register(kind, target)`), in its `create`: the link rules, the page and the
 * views count are the same for every kind (docs/api.md, Share links).
 */
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';

/** One photo a shared page shows: the served variants of the media, and what it says of itself. */
export interface SharedPhoto {
  mediaId: string;
  width: number | null;
  height: number | null;
  /** The author's description (its alt text), if any. */
  description: string | null;
  takenAt: Date | null;
  authorSensitive: boolean;
  contentWarning: string | null;
}

/**
 * What a link shows of its target, and nothing else of the owner's: a title (a collection's name; none
 * for a post), a caption, and the photos, in order. No link to a profile, no counts, no other content.
 */
export interface SharedView {
  kind: string;
  title: string | null;
  caption: string | null;
  photos: SharedPhoto[];
}

export interface ShareTarget {
  /** Refuses (404 on the body's `/targetId`) a target that is not the owner's, whatever its state. */
  requireOwn(ownerId: string, targetId: string): Promise<void>;
  /**
   * What the link shows now, for anyone: null when the target no longer opens (deleted, unpublished,
   * hidden by a moderator, emptied of anything public). The owner being hidden or blocking the viewer is
   * checked by the service for every kind. `locale` is the visitor's (a trip's title is written in it).
   */
  view(ownerId: string, targetId: string, locale: Locale): Promise<SharedView | null>;
}

export const targetKindPattern = /^[a-z][a-z-]{0,31}$/;

export class ShareTargets {
  readonly #kinds = new Map<string, ShareTarget>();

  register(kind: string, target: ShareTarget): void {
    if (!targetKindPattern.test(kind)) throw new Error(`share target kind ${kind}: lower-case letters and dashes`);
    if (this.#kinds.has(kind)) throw new Error(`share target kind ${kind} registered twice`);
    this.#kinds.set(kind, target);
  }

  /** The kinds registered, in registration order (the API documents them). */
  kinds(): string[] {
    return [...this.#kinds.keys()];
  }

  /** The kind asked for; 422 on the body's `/targetKind` for one nobody registered. */
  require(kind: string): ShareTarget {
    const target = this.#kinds.get(kind);
    if (target === undefined) {
      throw new AppError('validationFailed', {
        source: { pointer: '/targetKind' },
        detail: `one of ${this.kinds().join(', ')}`,
      });
    }
    return target;
  }

  /** The kind of a stored link; null for a kind no longer registered (the link opens nothing). */
  find(kind: string): ShareTarget | null {
    return this.#kinds.get(kind) ?? null;
  }
}

/** The 404 of a target that is not the owner's (or does not exist). */
export const targetNotFound = () =>
  new AppError('notFound', { source: { pointer: '/targetId' }, detail: 'no such post, collection or trip of yours' });
