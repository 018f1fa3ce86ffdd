/**
 * The paths syndication serves and links: the pages' heads link the feeds and oEmbed (web imports these
 * from syndication's face), the feeds link each post's page, oEmbed frames its embeddable card.
 */
import { toHex } from '../../platform/ids/ids.ts';
import { type FeedFormat, feedFormats } from './feed.ts';

export const profilePagePath = (username: string) => `/@${encodeURIComponent(username)}`;
/** A post's page (the web area's GET /posts/{id}): the link of its feed entry; oEmbed answers for it. */
export const postPagePath = (postId: string) => `/posts/${toHex(postId)}`;
/** A post's card (the web area's GET /embed/posts/{id}): the page an oEmbed answer frames. */
export const embedPostPath = (mediaId: string) => `/embed/posts/${toHex(mediaId)}`;
/** A profile's card (GET /embed/@{username}). */
export const embedProfilePath = (username: string) => `/embed/@${encodeURIComponent(username)}`;

export const profileFeedPath = (username: string, format: FeedFormat) =>
  `${profilePagePath(username)}.${feedFormats[format].extension}`;

/** The oEmbed endpoint's URL for a page of this site (the discovery link of its head). */
export const oembedPath = (pageUrl: string) => `/api/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
