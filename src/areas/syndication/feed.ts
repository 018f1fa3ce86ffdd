/** A feed as its sources give it, before it is written as RSS 2.0 or Atom 1.0 (feed-xml.ts). */

/** One photo of a feed: its page, its author and its large variant as the enclosure. */
export interface FeedEntry {
  /** The media id: the entry's permanent id (`urn:uuid:…`). */
  id: string;
  title: string;
  /** Its page, a path of this site. */
  link: string;
  summary: string | null;
  published: Date;
  updated: Date;
  author: string;
  /** The large variant: a path of this site, its type and its size in bytes (0 until it is rendered). */
  enclosure: { url: string; type: string; length: number };
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
