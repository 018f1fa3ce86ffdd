/**
 * The feeds the service publishes, by kind (a profile, a hashtag, a trip): each kind is a path
 * with one parameter, served as `<path>.rss` and `<path>.atom`. An area adds a kind through the face of
 * syndication (`syndication.feeds.sources.register(kind, source)`) in its `create`; the routes are made
 * from the registry when syndication registers its routes, after every area's `create`.
 */
import type { TSchema } from 'typebox';
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { Feed } from './feed.ts';

export interface FeedSource {
  /** The feed's path without its extension, with one `{parameter}`: `/@{username}`, `/tags/{tag}`. */
  path: string;
  /** The parameter's name in `path`, and its schema (the route validates it: 422 otherwise). */
  param: { name: string; schema: TSchema };
  /** What the feed is, for the routes' summaries. */
  summary: string;
  /** The feed, newest entries first; null when there is nothing public by that name (404). */
  load(key: string, locale: Locale): Promise<Feed | null>;
}

export class FeedSources {
  readonly #sources = new Map<string, FeedSource>();

  register(kind: string, source: FeedSource): void {
    if (this.#sources.has(kind)) throw new Error(`feed kind ${kind} registered twice`);
    if (!source.path.includes(`{${source.param.name}}`))
      throw new Error(`feed kind ${kind}: no {${source.param.name}} in its path`);
    this.#sources.set(kind, source);
  }

  entries(): [string, FeedSource][] {
    return [...this.#sources.entries()];
  }

  require(kind: string): FeedSource {
    const source = this.#sources.get(kind);
    if (source === undefined) throw new Error(`no feed kind ${kind}`);
    return source;
  }
}
