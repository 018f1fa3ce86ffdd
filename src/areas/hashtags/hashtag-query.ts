/** How a tag typed by a user becomes a stored tag's form: trimmed, one leading '#' dropped, NFC, lowercase. */
import { AppError } from '../../platform/http/error-catalogue.ts';
import { maxHashtagLength } from '../../platform/text/hashtags.ts';

/** The tag as media store it (src/areas/media/hashtags.ts), or a 400 naming the parameter. */
export function normaliseTagQuery(raw: string, parameter: string): string {
  const tag = raw.trim().replace(/^#/, '').normalize('NFC').toLowerCase();
  if (tag.length === 0) {
    throw new AppError('invalidQueryParameter', { source: { parameter }, detail: 'must hold at least one character' });
  }
  if ([...tag].length > maxHashtagLength) {
    throw new AppError('invalidQueryParameter', {
      source: { parameter },
      detail: `must be at most ${maxHashtagLength} characters (the longest hashtag)`,
    });
  }
  return tag;
}
