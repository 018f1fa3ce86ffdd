/**
 * Keywords as PostgreSQL regular expressions (ARE), matched against texts folded as the keywords were
 * (lower(unaccent(...))), so the database decides every match, on both engines, whether it hides a row
 * inside a list's statement or puts a warning on one (docs/api.md, Keyword filters).
 */

// ARE's metacharacters outside brackets; every other character of a keyword stands for itself.
const metacharacters = /[\\^$.*+?()[\]{}|]/g;
const wordCharacter = /[\p{L}\p{N}_]/u;
// Letters and digits by the database's classes, so "word" means the same on both engines.
const notWord = '[^[:alnum:]_]';

/**
 * A whole word has no letter, digit or underscore right before or after it (only on the sides where the
 * keyword itself starts or ends with one, as Mastodon does: "#travel" or "c++" still match); otherwise the
 * keyword matches anywhere.
 */
export function keywordPattern(folded: string, wholeWord: boolean): string {
  const literal = folded.replace(metacharacters, '\\$&');
  if (!wholeWord) return literal;
  const before = wordCharacter.test(folded.slice(0, 1)) ? `(^|${notWord})` : '';
  const after = wordCharacter.test(folded.slice(-1)) ? `($|${notWord})` : '';
  return `${before}${literal}${after}`;
}

/**
 * Many patterns as a few alternations: PostgreSQL keeps the last 32 compiled expressions, so a statement
 * that tested one expression per keyword on every row would compile them again and again.
 */
export function combinedPatterns(patterns: string[], perPattern = 250): string[] {
  const combined: string[] = [];
  for (let start = 0; start < patterns.length; start += perPattern) {
    combined.push(
      patterns
        .slice(start, start + perPattern)
        .map((pattern) => `(?:${pattern})`)
        .join('|'),
    );
  }
  return combined;
}
