/**
 * A caption as a Note's `content`: HTML as Mastodon writes its own, so it shows the same there. The
 * text is escaped (nothing the author typed becomes markup); paragraphs (a blank line)
 * become `<p>`, other line breaks `<br>`, and each #tag the link Mastodon makes of one
 * (`<a href="…/tags/tag" class="mention hashtag" rel="tag">#<span>tag</span></a>`).
 */
import { escapeHtml } from '../../../platform/text/escape-html.ts';

/** The path of a hashtag's page on this service (its feed lives beside it: `/tags/{tag}.rss`). */
export const hashtagPath = (tag: string) => `/tags/${encodeURIComponent(tag.toLowerCase())}`;

/** A #tag as written in a caption (the rule of platform/text/hashtags.ts). */
const hashtagInText = /#([\p{L}\p{N}_]{1,64})/gu;

/** One line: its text escaped, its #tags linked (found in the raw text, so no entity is taken for a tag). */
function htmlLine(line: string, publicUrl: string): string {
  let html = '';
  let last = 0;
  for (const match of line.matchAll(hashtagInText)) {
    const tag = match[1] ?? '';
    const href = escapeHtml(new URL(hashtagPath(tag), publicUrl).href);
    html += escapeHtml(line.slice(last, match.index));
    html += `<a href="${href}" class="mention hashtag" rel="tag">#<span>${escapeHtml(tag)}</span></a>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(line.slice(last));
}

/** The caption as safe HTML; an empty string for no caption. */
export function noteContentOf(caption: string | null, publicUrl: string): string {
  if (caption === null || caption.trim() === '') return '';
  return caption
    .replaceAll('\r\n', '\n')
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => {
      const lines = paragraph.split('\n').map((line) => htmlLine(line, publicUrl));
      return `<p>${lines.join('<br>')}</p>`;
    })
    .join('');
}
