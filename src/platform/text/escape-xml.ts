/**
 * Text written into XML (the sitemap, RSS and Atom feeds): the five markup characters as entities, and
 * the characters XML 1.0 cannot hold at all (C0 controls but tab and line breaks, lone surrogates,
 * U+FFFE and U+FFFF) left out, so a description holding one still makes a well-formed document.
 */

/** XML 1.0's Char production. */
export const isXmlCharacter = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** By code point: a lone surrogate is one of its own, and left out. */
const xmlCharactersOf = (text: string) =>
  Array.from(text)
    .filter((character) => isXmlCharacter(character.codePointAt(0) ?? 0))
    .join('');

export const escapeXml = (text: string) => xmlCharactersOf(text).replace(/[&<>"']/g, (c) => entities[c] ?? c);
