/**
 * PostgreSQL text cannot hold the NUL character, so a string with one would fail deep in a query.
 * This refuses it up front, naming where it was, for query strings and JSON bodies; the error
 * handler maps the database's own refusal (uploads' form fields, anything else) to the same 400.
 */
import { AppError } from './error-catalogue.ts';
import type { App } from './types.ts';

/** The JSON pointer of the first string holding NUL in a parsed JSON value, or null. */
function findNul(value: unknown, pointer: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, `${pointer}/${index}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = key.includes('\u0000') ? `${pointer}/${key}` : findNul(item, `${pointer}/${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

export const nulCharacter = (source: { pointer?: string; parameter?: string }) =>
  new AppError('badRequest', { source, detail: 'text may not contain the NUL character (U+0000)' });

export function registerNulGuard(app: App) {
  app.addHook('preValidation', async (request) => {
    const inQuery = findNul(request.query, '');
    if (inQuery !== null) throw nulCharacter({ parameter: inQuery.split('/')[1] ?? '' });
    const inBody = findNul(request.body, '');
    if (inBody !== null) throw nulCharacter({ pointer: inBody === '' ? '/' : inBody });
  });
}
