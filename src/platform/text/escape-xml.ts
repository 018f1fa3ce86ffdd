/**
 * Text written into XML (the sitemap, RSS and Atom feeds): the five markup characters as entities, and
 * the characters XML 1.0 cannot hold at all (C0 controls but tab and line breaks, lone surrogates,
 * U+FFFE and U+FFFF) left out, so a description holding one still makes a well-formed document.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 forbids
const notXmlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export const escapeXml = (text: string) =>
  text.replace(notXmlCharacters, '').replace(/[&<>"']/g, (c) => entities[c] ?? c);
