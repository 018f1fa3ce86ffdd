/**
 * Remote content as plain text: the HTML a fediverse server sends in names and summaries loses its
 * markup (line breaks kept), its entities are decoded, and it is cleaned as local text is
 * (platform/text/visible-text.ts) and cut to a length. Nothing of it is ever rendered as HTML.
 */
import { visibleText } from '../../platform/text/visible-text.ts';

const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#')) {
      const code =
        entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return named[entity.toLowerCase()] ?? whole;
  });
}

/**
 * The fragment without its scripts and styles (their content too; an unclosed one takes the rest),
 * in one pass: a lazy regular expression looking for each one's end would rescan the rest of the
 * text for every unclosed `<style`, seconds of work for a note of a few hundred kB.
 */
function withoutScripts(html: string): string {
  const opening = /<(script|style)\b/gi;
  let kept = '';
  let from = 0;
  for (let open = opening.exec(html); open !== null; open = opening.exec(html)) {
    kept += html.slice(from, open.index);
    const closing = new RegExp(`</${open[1]}\\s*>`, 'gi');
    closing.lastIndex = opening.lastIndex;
    const close = closing.exec(html);
    if (close === null) return kept;
    from = close.index + close[0].length;
    opening.lastIndex = from;
  }
  return kept + html.slice(from);
}

/** The text of an HTML fragment, or null when nothing of it shows; at most `maxLength` characters. */
export function plainTextOf(html: string | null | undefined, maxLength: number, multiline = false): string | null {
  if (html == null) return null;
  const text = decodeEntities(
    withoutScripts(html)
      .replace(/<br\s*\/?>|<\/p\s*>/gi, '\n')
      .replace(/<[^>]*>?/g, ''),
  );
  const flat = multiline ? text.replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n') : text.replace(/\s+/g, ' ');
  const visible = visibleText(flat, { multiline });
  return visible === null ? null : [...visible].slice(0, maxLength).join('').trim();
}
