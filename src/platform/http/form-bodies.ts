/**
 * HTML form bodies (application/x-www-form-urlencoded), read only by routes that declare `formBody`
 * (the web newsletter form, RFC 8058 one-click unsubscribe); every other route still answers 415.
 * Fields become strings; a field given twice becomes a list, which a string schema refuses (422).
 * The body limit is the app's, as for JSON.
 */
import { AppError } from './error-catalogue.ts';
import type { App } from './types.ts';

export const formMediaType = 'application/x-www-form-urlencoded';

export function parseFormBody(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const known = fields[name];
    fields[name] = known === undefined ? value : [...[known].flat(), value];
  }
  return { ...fields };
}

export function registerFormBodies(app: App) {
  app.addContentTypeParser(formMediaType, { parseAs: 'string' }, (request, body, done) => {
    if (request.routeOptions.config?.formBody !== true) {
      done(new AppError('unsupportedMediaType', { source: { header: 'Content-Type' } }), undefined);
      return;
    }
    done(null, parseFormBody(String(body)));
  });
}
