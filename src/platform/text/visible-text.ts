/**
 * Text people write for others to read (nicknames, comments, reasons, messages): normalized, cleaned of
 * characters that reorder or hide text, and refused when nothing of it would show.
 */

/**
 * Control characters (C0, C1) and the bidirectional embeddings, overrides, isolates and marks, which
 * let a text reorder what surrounds it. Multi-line texts keep their line breaks and tabs.
 */
const controls = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
const controlsButLineBreaks = /(?![\n\t])[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * What shows nothing on its own: spaces, format and default-ignorable characters (zero-width space,
 * joiners, word joiner, BOM, Hangul fillers...), combining marks with nothing to combine with, the
 * braille blank.
 */
const invisible = /^[\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}\p{M}\u2800]*$/u;

/** Whether nothing of the text would show (empty included). */
export const showsNothing = (text: string): boolean => invisible.test(text);

/**
 * The text as stored: NFC-normalized, controls and bidi controls removed (line breaks and tabs kept
 * when `multiline`), trimmed; null when nothing of it would show.
 */
export function visibleText(value: string, options: { multiline?: boolean } = {}): string | null {
  const cleaned = value
    .normalize('NFC')
    .replace(options.multiline ? controlsButLineBreaks : controls, '')
    .trim();
  return showsNothing(cleaned) ? null : cleaned;
}
