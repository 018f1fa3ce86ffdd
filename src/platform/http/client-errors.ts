/**
 * What Node's HTTP server answers itself, before Fastify sees a request (its `clientError` event): a
 * malformed request line or header (400), headers over Node's 16 KB limit (431), a request whose
 * headers or body did not arrive within the request timeout (408). Each gets a JSON:API error
 * document with the headers every answer carries, then the connection is closed.
 */
import type { Socket } from 'node:net';
import { defaultLocale, translate } from '../i18n/i18n.ts';
import { type ErrorCode, errorCatalogue } from './error-catalogue.ts';
import { jsonApiMediaType } from './jsonapi.ts';
import { referrerPolicy } from './security-headers.ts';

// Not `import … from 'node:http'`: an ES import of it reads every export, which loads Node's fetch
// (undici, about 0.08 s of a start) for nothing (docs/development.md, Conventions).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

function errorOf(code: string | undefined): { code: ErrorCode; detail: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'requestTimeout', detail: 'the request headers and body did not arrive in time' };
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headersTooLarge', detail: 'the request headers are over 16 KB' };
    default:
      return { code: 'badRequest', detail: 'the request line or headers are malformed' };
  }
}

/** The raw answer: the request was never parsed, so its Accept-Language is unknown (default locale). */
export function clientErrorResponse(nodeCode: string | undefined): string {
  const { code, detail } = errorOf(nodeCode);
  const status = errorCatalogue[code];
  const body = JSON.stringify({
    errors: [{ status: String(status), code, title: translate(defaultLocale, `errors.${code}`), detail }],
  });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `Content-Type: ${jsonApiMediaType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    `Referrer-Policy: ${referrerPolicy}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** For Fastify's `clientErrorHandler` option. */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // An answer already begun (a route that replied before the body ended) must not be corrupted.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(clientErrorResponse(error.code));
  socket.destroy(error);
}
