/** A fetched Fedify actor as remote-actors.service.ts keeps it: ids, inboxes, and names as plain text. */
import type { Actor } from '@fedify/fedify/vocab';
import { nicknameMaxLength } from '../../accounts/public.ts';
import { plainTextOf } from '../plain-text.ts';
import type { RemoteActorProfile } from '../remote-actors.service.ts';
import { httpUrlOf, refuseToFetch } from '../remote-urls.ts';

/** The longest summary kept (Mastodon allows 500 characters). */
export const summaryMaxLength = 1000;

const firstText = (value: unknown): string | null => (value == null ? null : String(value));

/** Null when the actor lacks an id, an inbox or a preferredUsername (nothing to deliver to or show). */
export function profileOf(actor: Actor): RemoteActorProfile | null {
  const username = plainTextOf(firstText(actor.preferredUsername), 100);
  if (actor.id === null || actor.inboxId === null || username === null || /[\s@]/.test(username)) return null;
  return {
    uri: actor.id.href,
    handle: `${username}@${actor.id.host}`,
    name: plainTextOf(firstText(actor.name), nicknameMaxLength),
    summary: plainTextOf(firstText(actor.summary), summaryMaxLength, true),
    inbox: actor.inboxId.href,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
  };
}

/** The actor's avatar as an http(s) URL, only when its document embeds it (the image is never fetched). */
export async function avatarUrlOf(actor: Actor): Promise<string | null> {
  const icon = await actor.getIcon({ documentLoader: refuseToFetch, suppressError: true }).catch(() => null);
  const url = icon?.url instanceof URL ? icon.url : (icon?.url?.href ?? null);
  return httpUrlOf(url);
}
