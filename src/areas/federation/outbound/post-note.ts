/**
 * A local post as ActivityStreams (docs/api.md, Federation): the `Note` served at
 * `/ap/posts/{mediaId}` and carried by Create and Update, and the `Tombstone` a Delete carries. Made
 * from federated-posts.ts's plain data; nothing else of the media row reaches it, so no position but
 * the city's can.
 */
import type { Context } from '@fedify/fedify';
import { Hashtag, Image, Note, Place, PUBLIC_COLLECTION, Tombstone } from '@fedify/fedify/vocab';
import { Temporal as TemporalPolyfill } from '@js-temporal/polyfill';
import type { FederatedPost } from './federated-posts.ts';

/**
 * A time as Fedify's vocabulary takes it: typed as the standard Temporal (which Node 24 lacks), made
 * with the polyfill Fedify itself makes its times with (Fedify's own dependency).
 */
export const instantOf = (date: Date): Temporal.Instant =>
  TemporalPolyfill.Instant.fromEpochMilliseconds(date.getTime()) as unknown as Temporal.Instant;

/**
 * `edited`: the Note of an Update, which carries `updated` (the photos' latest change). Elsewhere it is
 * left out: Mastodon shows a post whose `updated` differs from `published` as edited, and a post of
 * several photos changes after it is made (its photos are gathered), before it is ever sent.
 */
export function noteOf(ctx: Context<null>, post: FederatedPost, { edited = false } = {}): Note {
  return new Note({
    id: ctx.getObjectUri(Note, { id: post.id }),
    attribution: ctx.getActorUri(post.ownerId),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(post.ownerId),
    url: new URL(post.url),
    content: post.content,
    summary: post.summary,
    sensitive: post.sensitive,
    published: instantOf(post.published),
    updated: edited ? instantOf(post.updated) : null,
    attachments: post.photos.map(
      (photo) =>
        new Image({
          url: new URL(photo.url),
          mediaType: photo.mediaType,
          width: photo.width,
          height: photo.height,
          name: photo.name,
        }),
    ),
    tags: post.hashtags.map((tag) => new Hashtag({ name: tag.name, href: new URL(tag.href) })),
    location:
      post.place === null
        ? null
        : new Place({ name: post.place.name, latitude: post.place.latitude, longitude: post.place.longitude }),
  });
}

/** What a Delete of the post carries: its URI, gone. */
export function tombstoneOf(ctx: Context<null>, mediaId: string, deletedAt: Date): Tombstone {
  return new Tombstone({ id: ctx.getObjectUri(Note, { id: mediaId }), deleted: instantOf(deletedAt) });
}
