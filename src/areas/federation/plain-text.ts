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

/** The text of an HTML fragment, or null when nothing of it shows; at most `maxLength` characters. */
export function plainTextOf(html: string | null | undefined, maxLength: number, multiline = false): string | null {
  if (html == null) return null;
  const text = decodeEntities(
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<br\s*\/?>|<\/p\s*>/gi, '\n')
      .replace(/<[^>]*>?/g, ''),
  );
  const flat = multiline ? text.replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n') : text.replace(/\s+/g, ' ');
  const visible = visibleText(flat, { multiline });
  return visible === null ? null : [...visible].slice(0, maxLength).join('').trim();
}
