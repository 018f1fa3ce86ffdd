/**
 * The one error handler: every error, on every surface, becomes a JSON:API error document
 * (HTML routes get an HTML page unless the client asks for JSON). Never a 500 for bad input.
 */

import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, isUnstorableText } from '../db/errors.ts';
import { negotiateLocale, translate } from '../i18n/i18n.ts';
import { escapeHtml } from '../text/escape-html.ts';
import { AppError, AppErrors, type ErrorCode } from './error-catalogue.ts';
import { jsonApiMediaType } from './jsonapi.ts';
import { nulCharacter } from './nul-guard.ts';
import { htmlFrameHeaders, referrerPolicy } from './security-headers.ts';
import { AnswerSchemaMismatch } from './serialization.ts';
import type { App } from './types.ts';
import { hasAtMostValues, maxValuesForAllErrors } from './validation.ts';

/**
 * At most this many errors in one answer: the rest are counted in the document's `meta`, so a small
 * request with thousands of faults cannot get a large answer.
 */
export const maxErrorsShown = 20;

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** A JSON pointer to the value in error; the whole document is "" (RFC 6901). */
function pointerOf(error: AjvError): string {
  const base = error.instancePath;
  if (error.keyword === 'required') return `${base}/${String(error.params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') return `${base}/${String(error.params.additionalProperty)}`;
  return base;
}

/**
 * A value that matches none of a union's alternatives gets one error ("must be one of …" when the
 * alternatives are constants), not one per alternative plus the union's own.
 */
function collapseUnions(errors: AjvError[]): AjvError[] {
  const unionPaths = new Set(errors.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath));
  if (unionPaths.size === 0) return errors;
  return errors.flatMap((error) => {
    if (!unionPaths.has(error.instancePath)) return [error];
    if (error.keyword !== 'anyOf') return [];
    const constants = errors
      .filter((other) => other.instancePath === error.instancePath && other.keyword === 'const')
      .map((other) => JSON.stringify(other.params.allowedValue));
    const message =
      constants.length > 0 ? `must be one of ${constants.join(', ')}` : 'matches none of the allowed forms';
    return [{ ...error, message }];
  });
}

function validationErrors(error: FastifyError, request: FastifyRequest): AppErrors {
  const context = (error as FastifyError & { validationContext?: string }).validationContext;
  const ajvErrors = collapseUnions((error.validation ?? []) as AjvError[]);
  const inBody = context === 'body';
  const status = inBody ? 422 : context === 'params' ? 422 : 400;
  const code: ErrorCode = inBody || context === 'params' ? 'validationFailed' : 'invalidQueryParameter';
  const seen = new Set<string>();
  const errors = ajvErrors
    .map((ajvError) => {
      const pointer = pointerOf(ajvError);
      const detail =
        ajvError.keyword === 'additionalProperties'
          ? 'this field is not allowed'
          : ajvError.keyword === 'required'
            ? 'this field is required'
            : (ajvError.message ?? 'invalid value');
      const source = inBody ? { pointer } : { parameter: pointer.split('/')[1] ?? context ?? '' };
      const key = `${JSON.stringify(source)}${detail}`;
      if (seen.has(key)) return null;
      seen.add(key);
      return new AppError(code, { detail, source, meta: { keyword: ajvError.keyword } });
    })
    .filter((item): item is AppError => item !== null);
  // A large body is checked up to its first error only (validation.ts): say so, rather than a count.
  const stoppedEarly = inBody && !hasAtMostValues(request.body, maxValuesForAllErrors);
  return new AppErrors(status, errors, stoppedEarly ? { validationStoppedEarly: true } : undefined);
}

/** The Retry-After of a 503 databaseUnavailable: a restart or a failover takes a few seconds. */
export const databaseRetryAfterSeconds = 5;

const databaseUnavailable = () =>
  new AppError('databaseUnavailable', {
    headers: { 'Retry-After': String(databaseRetryAfterSeconds) },
    values: { seconds: databaseRetryAfterSeconds },
    meta: { retryAfterSeconds: databaseRetryAfterSeconds },
  });

/** Maps framework errors (parsing, limits, content types) to our codes. */
function frameworkError(error: FastifyError): AppError {
  if (isUnstorableText(error)) return nulCharacter({});
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new AppError('badRequest', { detail: 'the path is not a valid URL component' });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('uriTooLong');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('malformedJson', { detail: error.message });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('badRequest', { source: { header: 'Content-Length' }, detail: error.message });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // The whole body is what cannot be read: the root pointer, and the header that named its type.
      return new AppError('unsupportedMediaType', {
        source: { pointer: '', header: 'Content-Type' },
        detail: error.message,
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('payloadTooLarge', { detail: error.message });
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('unsupportedMediaType', { source: { header: 'Content-Type' }, detail: error.message });
  }
  if (error instanceof SyntaxError) return new AppError('malformedJson', { detail: error.message });
  const status = error.statusCode ?? 500;
  if (status === 404) return new AppError('notFound');
  if (status === 413) return new AppError('payloadTooLarge', { detail: error.message });
  if (status === 415) return new AppError('unsupportedMediaType', { detail: error.message });
  if (status === 429) return new AppError('rateLimited', { values: { seconds: 60 } });
  if (status >= 400 && status < 500) return new AppError('badRequest', { detail: error.message });
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  return new AppError('internal');
}

export function toErrorObject(error: AppError, request: FastifyRequest) {
  return {
    status: String(error.status),
    code: error.code,
    title: translate(request.locale, `errors.${error.code}`, error.options.values),
    ...(error.options.detail !== undefined ? { detail: error.options.detail } : {}),
    ...(error.options.source ? { source: error.options.source } : {}),
    ...(error.options.meta ? { meta: error.options.meta } : {}),
  };
}

/** What an HTML error page shows: the status, the translated title, the error's code and detail. */
export interface HtmlError {
  status: number;
  code: string;
  title: string;
  detail?: string;
  /** The values of the title's message, to translate it again (the page may have its own locale). */
  values?: Record<string, unknown>;
}
export type HtmlErrorPage = (request: FastifyRequest, error: HtmlError) => Promise<string>;
const htmlErrorPages = new WeakMap<object, HtmlErrorPage>();

/** The web area draws HTML error pages in its layout; without it (or if it fails) a bare page is sent. */
export function setHtmlErrorPage(app: App, render: HtmlErrorPage): void {
  htmlErrorPages.set(app, render);
}

const bareErrorPage = (request: FastifyRequest, status: number, title: string) =>
  `<!doctype html><html lang="${request.locale.slice(0, 2)}"><head><meta charset="utf-8"><title>${status} ${escapeHtml(title)}</title></head><body><main><h1>${status}</h1><p>${escapeHtml(title)}</p></main></body></html>`;

function wantsHtml(request: FastifyRequest): boolean {
  if (request.url.startsWith('/api') || request.url.startsWith('/admin') || request.url.startsWith('/health/'))
    return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') || !accept.includes('json');
}

export function sendErrors(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  errors: AppError[],
  rootMeta?: Record<string, unknown>,
  /** The bare page instead of the layout's: for answers no hook runs on, which could not carry a page's headers. */
  bareHtml = false,
) {
  let meta = rootMeta;
  const omitted = errors.length - maxErrorsShown;
  if (omitted > 0) meta = { ...meta, errorsOmitted: omitted, maxErrorsShown };
  const shown = omitted > 0 ? errors.slice(0, maxErrorsShown) : errors;
  for (const error of shown)
    for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value);
  const objects = shown.map((error) => toErrorObject(error, request));
  if (wantsHtml(request)) {
    const first = objects[0];
    const title = first?.title ?? 'Error';
    reply.status(status).type('text/html; charset=utf-8');
    const render = htmlErrorPages.get(request.server);
    if (!render || bareHtml) return reply.send(bareErrorPage(request, status, title));
    const error: HtmlError = {
      status,
      code: first?.code ?? 'internal',
      title,
      detail: first?.detail,
      values: shown[0]?.options.values,
    };
    return render(request, error).then(
      (page) => reply.send(page),
      (failure: unknown) => {
        request.log.error({ err: failure }, 'the HTML error page failed');
        return reply.send(bareErrorPage(request, status, title));
      },
    );
  }
  return reply
    .status(status)
    .type(jsonApiMediaType)
    .send(meta === undefined ? { errors: objects } : { errors: objects, meta });
}

/** For Fastify's `frameworkErrors` option: URL errors found before routing, in our document shape. */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No hook has run for such a request, so its locale is negotiated here.
  request.locale = negotiateLocale(request.headers['accept-language']);
  // Nor does onSend: the headers every answer carries are set here (security-headers.ts).
  reply.header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', referrerPolicy).headers(htmlFrameHeaders);
  const mapped = frameworkError(error);
  return sendErrors(request, reply, mapped.status, [mapped], undefined, true);
}

export function registerErrorHandling(app: App) {
  app.setErrorHandler((error: FastifyError | AppError | AppErrors, request, reply) => {
    if (error instanceof AppErrors) return sendErrors(request, reply, error.status, error.errors, error.meta);
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return sendErrors(request, reply, error.status, [error]);
    }
    if (error instanceof AnswerSchemaMismatch) {
      // Only with CHECK_ANSWERS (development and tests): the developer is the reader, so it says why.
      request.log.error({ err: error }, 'answer does not match its schema');
      return sendErrors(request, reply, 500, [new AppError('internal', { detail: error.message })]);
    }
    if ((error as FastifyError).validation) {
      const grouped = validationErrors(error as FastifyError, request);
      return sendErrors(request, reply, grouped.status, grouped.errors, grouped.meta);
    }
    const mapped = frameworkError(error as FastifyError);
    if (mapped.code === 'databaseUnavailable') {
      request.log.warn({ event: 'db.unavailable', err: error }, 'the database cannot be reached');
    } else if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendErrors(request, reply, mapped.status, [mapped]);
  });
}

/**
 * The answer to a path no route serves. `viewer` (auth.ts) runs first, so the 404 page of a signed-in
 * browser names its viewer as every other page does.
 */
export function registerNotFound(app: App, viewer: (request: FastifyRequest, reply: FastifyReply) => Promise<void>) {
  app.setNotFoundHandler({ preHandler: viewer }, (request, reply) =>
    sendErrors(request, reply, 404, [
      new AppError('routeNotFound', { values: { method: request.method, path: request.url.split('?')[0] ?? '' } }),
    ]),
  );
}
