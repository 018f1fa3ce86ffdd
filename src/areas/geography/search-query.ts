/**
 * The `q` of the search routes: 1 to 100 characters (the route's schema), not blank, and without the
 * LIKE metacharacters `%`, `_` and `\` (a name never needs them; refusing them keeps every search an
 * index search rather than a pattern the caller controls).
 */
import { AppError } from '../../platform/http/error-catalogue.ts';

export const searchQueryMaxLength = 100;

export function searchQuery(raw: string): string {
  const q = raw.trim();
  if (q === '') throw new AppError('invalidQueryParameter', { source: { parameter: 'q' }, detail: 'q is blank' });
  if (/[%_\\]/.test(q)) {
    throw new AppError('invalidQueryParameter', {
      source: { parameter: 'q' },
      detail: 'q may not contain %, _ or \\',
    });
  }
  return q;
}
