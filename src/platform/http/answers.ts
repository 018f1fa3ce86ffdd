/**
 * A route declares its statuses (`success.status`, `success.also`, `errors`); a handler never sets one.
 * Where the answer is not the main success, the handler returns one of these and registerRoutes sends
 * it, refusing (500) a status the route does not declare.
 */
import { type ErrorCode, errorCatalogue } from './error-catalogue.ts';

export class Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** Another success the route lists in `success.also` (a duplicate's 200, a range's 206), with its body; 304 has none. */
export const alsoAnswer = (status: number, body?: unknown) => new Answer(status, body);

/** The redirect of a route whose success is 302. */
export const redirectTo = (location: string) => new Answer(302, undefined, { Location: location });

/** The HTML page of an error the route declares (a web link's 410 offerGone), instead of the error document. */
export const errorPage = (code: ErrorCode, html: string) =>
  new Answer(errorCatalogue[code], html, { 'Content-Type': 'text/html; charset=utf-8' });
