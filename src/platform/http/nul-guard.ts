/**
 * PostgreSQL text cannot hold the NUL character, so a string with one would fail deep in a query.
 * This refuses it up front, naming where it was, for query strings and JSON bodies; the error
 * handler maps the database's own refusal (uploads' form fields, anything else) to the same 400.
 */
import { AppError } from './error-catalogue.ts';
import type { App } from './types.ts';

/** Deeper JSON than any route takes is refused before it is walked (or validated). */
export const maxJsonDepth = 64;

/**
 * The JSON pointer of the first string holding NUL in a parsed JSON value, or null. Walks with an
 * explicit stack, so a deeply nested body cannot exhaust the call stack; too deep is an error.
 */
function findNul(root: unknown): string | null {
  // Most requests have no body and an empty query: nothing to walk, nothing to allocate.
  if (root === undefined || root === null || isEmptyObject(root)) return null;
  const stack: Array<{ value: unknown; pointer: string; depth: number }> = [{ value: root, pointer: '', depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, pointer, depth } = item;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pointer;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxJsonDepth) {
      throw new AppError('badRequest', { source: { pointer }, detail: `nested deeper than ${maxJsonDepth} levels` });
    }
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) return `${pointer}/${key}`;
      stack.push({ value: child, pointer: `${pointer}/${key}`, depth: depth + 1 });
    }
  }
  return null;
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object') return false;
  for (const _key in value) return false;
  return true;
}

export const nulCharacter = (source: { pointer?: string; parameter?: string }) =>
  new AppError('badRequest', { source, detail: 'text may not contain the NUL character (U+0000)' });

export function registerNulGuard(app: App) {
  // A callback hook (see app.ts): a throw is Fastify's error path.
  app.addHook('preValidation', (request, _reply, done) => {
    const inQuery = findNul(request.query);
    if (inQuery !== null) throw nulCharacter({ parameter: inQuery.split('/')[1] ?? '' });
    const inBody = findNul(request.body);
    if (inBody !== null) throw nulCharacter({ pointer: inBody === '' ? '/' : inBody });
    done();
  });
}
