/**
 * What a local user sends about a remote post (docs/api.md, Federation): Like, Undo(Like) and a reply
 * (Create(Note) with inReplyTo the post), signed by the user's actor and delivered to the author's
 * inbox through Fedify's queue (the job federation-queue). Loaded only by federation-setup.ts.
 */
import type { Context } from '@fedify/fedify';
import { Create, Like, Mention, Note, PUBLIC_COLLECTION, Undo } from '@fedify/fedify/vocab';
import { Temporal as TemporalPolyfill } from '@js-temporal/polyfill';
import { escapeHtml } from '../../../platform/text/escape-html.ts';
import { recipientOf } from '../inbound/remote-party.ts';
import type { RemoteActorRow } from '../tables.ts';
import { type RemotePostActivities, replyPath } from './remote-posts.service.ts';
import type { RemotePostReplyRow } from './tables.ts';

/** A time as Fedify takes it: the polyfill's Instant (Node 24 has no Temporal), typed as the global one. */
const instantOf = (date: Date) =>
  TemporalPolyfill.Instant.fromEpochMilliseconds(date.getTime()) as unknown as Temporal.Instant;

/** The reply's text as the HTML a Note carries: escaped, a paragraph per blank-line-separated part. */
function replyHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((part) => `<p>${escapeHtml(part).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export function remotePostActivitiesOf(ctx: Context<null>): RemotePostActivities {
  const send = (userId: string, author: RemoteActorRow, activity: Like | Undo | Create) =>
    ctx.sendActivity({ identifier: userId }, recipientOf(author), activity);
  const likeOf = (userId: string, postUri: string, likeUri: string) =>
    new Like({ id: new URL(likeUri), actor: ctx.getActorUri(userId), object: new URL(postUri) });

  return {
    like: (userId, author, postUri, likeUri) => send(userId, author, likeOf(userId, postUri, likeUri)),
    undoLike: (userId, author, postUri, likeUri) =>
      send(
        userId,
        author,
        new Undo({
          id: new URL(`${likeUri}/undo`),
          actor: ctx.getActorUri(userId),
          object: likeOf(userId, postUri, likeUri),
        }),
      ),
    reply: (userId, author, postUri, reply: RemotePostReplyRow) => {
      const actor = ctx.getActorUri(userId);
      const published = instantOf(reply.createdAt);
      const id = new URL(replyPath(reply.id), ctx.origin);
      // To the author (mentioned, so that their server notifies them), and public in cc, as a comment here is.
      const note = new Note({
        id,
        attribution: actor,
        to: new URL(author.actorUri),
        cc: PUBLIC_COLLECTION,
        replyTarget: new URL(postUri),
        content: replyHtml(reply.text),
        tags: [new Mention({ href: new URL(author.actorUri) })],
        published,
      });
      return send(
        userId,
        author,
        new Create({
          id: new URL(`${id.href}/activity`),
          actor,
          to: new URL(author.actorUri),
          cc: PUBLIC_COLLECTION,
          object: note,
          published,
        }),
      );
    },
  };
}
