/** A feed as its sources give it, before it is written as RSS 2.0 or Atom 1.0 (feed-xml.ts). */

export interface FeedEnclosure {
  url: string;
  type: string;
  length: number;
}

/** One post of a feed: its page, its author and its photos' large variants as enclosures. */
export interface FeedEntry {
  /** The post's id (its lead media's): the entry's permanent id (`urn:uuid:…`). */
  id: string;
  title: string;
  /** Its page, a path of this site. */
  link: string;
  summary: string | null;
  published: Date;
  updated: Date;
  author: string;
  /**
   * Every photo of the post in order, as its large variant: a path of this site, its type and its size in
   * bytes (0 until it is rendered). RSS carries the first (one enclosure per item), Atom every one.
   */
  enclosures: FeedEnclosure[];
}

export interface Feed {
  title: string;
  description: string;
  /** The page the feed follows, a path of this site. */
  htmlPath: string;
  /** The feed's own path, without `.rss` or `.atom`. */
  selfPath: string;
  /** The newest entry's time; for an empty feed, the source's own (a profile's creation), else the epoch. */
  updated: Date;
  entries: FeedEntry[];
}

export const feedFormats = {
  rss: { extension: 'rss', mediaType: 'application/rss+xml' },
  atom: { extension: 'atom', mediaType: 'application/atom+xml' },
} as const;
export type FeedFormat = keyof typeof feedFormats;
