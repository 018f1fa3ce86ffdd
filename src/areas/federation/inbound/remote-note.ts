/**
 * A remote `Note` as remote posts keep it (remote-posts.service.ts): its text as plain text
 * (plain-text.ts), its link and its Image/Document attachments as http(s) URLs with their media
 * types, sizes and descriptions. Attachments are read only where the note embeds them: none is ever
 * fetched (refuseToFetch), neither the image nor a document naming it.
 */
import { Document, Link, type Note, Page, PUBLIC_COLLECTION } from '@fedify/fedify/vocab';
import { plainTextOf } from '../plain-text.ts';
import { type RemoteNote, remotePostMaxAttachments } from '../remote-posts/remote-posts.service.ts';
import type { RemoteAttachment } from '../remote-posts/tables.ts';
import { httpUrlOf, refuseToFetch } from '../remote-urls.ts';

/** The longest text kept of a note (Pixelfed's captions and Mastodon's posts are shorter). */
export const remoteNoteTextMaxLength = 5000;
const summaryMaxLength = 500;
const altTextMaxLength = 1500;
const mediaTypePattern = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}$/i;

const textOf = (value: unknown): string | null => (value == null ? null : String(value));
const dateOf = (instant: { epochMilliseconds: number } | null): Date | null =>
  instant === null ? null : new Date(instant.epochMilliseconds);
const dimensionOf = (value: number | null): number | null =>
  value !== null && Number.isInteger(value) && value > 0 && value <= 100_000 ? value : null;

/** Whether the note is addressed to the public collection (`to` or `cc`). */
export const isPublicNote = (note: Note): boolean =>
  [...note.toIds, ...note.ccIds].some((id) => id.href === PUBLIC_COLLECTION.href);

async function attachmentsOf(note: Note): Promise<RemoteAttachment[]> {
  const kept: RemoteAttachment[] = [];
  for await (const item of note.getAttachments({ documentLoader: refuseToFetch, suppressError: true })) {
    if (kept.length >= remotePostMaxAttachments) break;
    if (!(item instanceof Document) || item instanceof Page) continue;
    const link = item.url instanceof Link ? item.url : null;
    const url = httpUrlOf(item.url instanceof URL ? item.url : link?.href);
    if (url === null) continue;
    const mediaType = item.mediaType ?? link?.mediaType ?? null;
    kept.push({
      url,
      mediaType: mediaType !== null && mediaTypePattern.test(mediaType) ? mediaType.toLowerCase() : null,
      name: plainTextOf(textOf(item.name), altTextMaxLength, true),
      width: dimensionOf(item.width),
      height: dimensionOf(item.height),
    });
  }
  return kept;
}

/** The note as kept, or null without an http(s) id. */
export async function remoteNoteOf(note: Note): Promise<RemoteNote | null> {
  const uri = httpUrlOf(note.id);
  if (uri === null) return null;
  const link = note.url instanceof Link ? note.url.href : note.url;
  return {
    uri,
    url: httpUrlOf(link) ?? uri,
    content: plainTextOf(textOf(note.content), remoteNoteTextMaxLength, true),
    summary: plainTextOf(textOf(note.summary), summaryMaxLength),
    sensitive: note.sensitive === true,
    publishedAt: dateOf(note.published),
    editedAt: dateOf(note.updated),
    attachments: await attachmentsOf(note),
  };
}
