/**
 * A remote Note as a comment's text (docs/api.md, Federation): its HTML made plain text
 * (plain-text.ts: markup dropped, links kept as their text), its content warning first, and its
 * mentions written so that the comments area's `@username` rule links only the local users they
 * name. Mastodon and Pixelfed link a mention to the account's profile page with the text `@name`
 * (the host left out for an account of the writer's own server): a mention of this server's account
 * (a link here, or `@name@{our host}`) is `@name`, any other becomes `@name@host` (the link's host unless the text names one), which no
 * local username matches.
 */
import type { Note } from '@fedify/fedify/vocab';
import { commentMaxLength } from '../../comments/public.ts';
import { plainTextOf } from '../plain-text.ts';

// Each part stops at the next tag (`[^<>]`, no other `<a` inside), so a note of a million unclosed
// anchors or attributes is read in one pass: a lazy `[\s\S]*?` here took minutes over 130 kB.
const anchorPattern = /<a\b([^<>]*)>((?:[^<]|<(?!\/?a\b))*)<\/a\s*>/gi;
const hrefPattern = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/i;
const mentionPattern = /^@([^\s@<>]+)(?:@([^\s@<>]+))?$/;

function hrefOf(raw: string): URL | null {
  try {
    return new URL(raw.replace(/&amp;/gi, '&'));
  } catch {
    return null;
  }
}

/** A mention link as text (`@name` here, `@name@host` elsewhere); any other link as it was. */
function mentionOf(anchor: string, rawHref: string, inner: string, origin: string): string {
  const match = mentionPattern.exec(plainTextOf(inner, 200) ?? '');
  const href = hrefOf(rawHref);
  if (match === null || href === null) return anchor;
  const [, name, host] = match;
  const here = host === undefined ? href.origin === origin : host.toLowerCase() === new URL(origin).host;
  if (here) return `@${name}`;
  return `@${name}@${host ?? href.host}`;
}

/** The comment's body the Note makes (at most commentMaxLength characters), or null when nothing shows. */
export function commentTextOf(note: Note, origin: string): string | null {
  const content = (note.content?.toString() ?? '').replace(
    anchorPattern,
    (anchor, attributes: string, inner: string) => {
      const href = hrefPattern.exec(attributes);
      return href === null ? anchor : mentionOf(anchor, href[1] ?? href[2] ?? '', inner, origin);
    },
  );
  const text = plainTextOf(content, commentMaxLength, true);
  const warning = plainTextOf(note.summary?.toString(), commentMaxLength);
  if (warning === null || text === null) return text;
  return [...`${warning}\n\n${text}`].slice(0, commentMaxLength).join('');
}
