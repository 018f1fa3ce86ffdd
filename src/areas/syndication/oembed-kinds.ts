/**
 * The pages oEmbed answers for, by kind (a post, a profile, a trip): each kind says which of this
 * site's paths it names, and what an embed of it shows. An area adds a kind through the face of
 * syndication (`syndication.oembed.kinds.register(kind, definition)`) in its `create`.
 */
import type { Locale } from '../../platform/i18n/i18n.ts';

/** What an embed shows: its card page (the iframe), and a photo (type photo) or a thumbnail (rich). */
export interface OEmbedSubject {
  /** `photo` for a photo anyone may see plainly; `rich` (the card in an iframe) otherwise. */
  type: 'photo' | 'rich';
  title: string;
  author: { name: string; path: string } | null;
  /** The card page the iframe shows, a path of this site. */
  cardPath: string;
  /** The card's widest size, and its height at a width (the photo's height there, and its text's). */
  card: { width: number; heightAt(width: number): number };
  /** The photo of a `photo` answer, the thumbnail of a `rich` one. */
  image: { mediaId: string; originalFormat: string; width: number; height: number } | null;
}

export interface OEmbedKind {
  /** The key (an id, a name) a page path names for this kind, or null when the path is not one of its pages. */
  match(path: string): string | null;
  /** What an embed of it shows, or null when it is not public (404). */
  resolve(key: string, locale: Locale): Promise<OEmbedSubject | null>;
}

export class OEmbedKinds {
  readonly #kinds = new Map<string, OEmbedKind>();

  register(kind: string, definition: OEmbedKind): void {
    if (this.#kinds.has(kind)) throw new Error(`oEmbed kind ${kind} registered twice`);
    this.#kinds.set(kind, definition);
  }

  /** The kind whose page the path is, and the key it names. */
  match(path: string): { kind: OEmbedKind; key: string } | null {
    for (const kind of this.#kinds.values()) {
      const key = kind.match(path);
      if (key !== null) return { kind, key };
    }
    return null;
  }
}
