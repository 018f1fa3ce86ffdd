/**
 * Holds every answer a test observes to the OpenAPI document: its status must be one its route's
 * declaration documents, and it must have a body exactly when the document gives that status a
 * `content`, of one of the media types listed there (`x-empty-for-json`: a form's answer may be empty).
 * Attached to every test app; a test file whose requests met an answer its document does not describe
 * fails when its app closes, naming the route, the status and what differs.
 */
import { emptyForJsonExtension } from '../../src/platform/http/openapi.ts';
import type { App } from '../../src/platform/http/types.ts';

interface Observation {
  method: string;
  path: string;
  status: number;
  /** The Content-Type's type and subtype, '' for a body without one; null when there is no body. */
  body: string | null;
}

interface DocumentedOperation {
  responses?: Record<string, { content?: Record<string, unknown> }>;
  [emptyForJsonExtension]?: boolean;
}

/** `/api/users/:userId/likes` -> `/api/users/{userId}/likes`, as the document writes paths. */
const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const baseType = (mediaType: string) => mediaType.split(';')[0]!.trim().toLowerCase();

/** The payload onSend sees: serialized (a string or a Buffer), a stream, or nothing. */
function hasBody(payload: unknown): boolean {
  if (payload === undefined || payload === null) return false;
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) return payload.length > 0;
  return true;
}

/** Whether a documented media type (`image/*` is a range) covers the one sent. */
function covers(documented: string, sent: string): boolean {
  const type = baseType(documented);
  return type === sent || type === '*/*' || (type.endsWith('/*') && sent.startsWith(type.slice(0, -1)));
}

/** What differs between an answer and the operation documenting its route, or null when nothing does. */
function difference(operation: DocumentedOperation, { status, body }: Observation): string | null {
  const response = operation.responses?.[String(status)];
  if (response === undefined) return ', which its declaration does not document';
  const documented = Object.keys(response.content ?? {});
  if (body === null) {
    if (documented.length === 0 || operation[emptyForJsonExtension]) return null;
    return ` with no body, where its declaration documents ${documented.join(', ')}`;
  }
  const sent = body === '' ? 'a body without Content-Type' : `a body of ${body}`;
  if (documented.length === 0) return ` with ${sent}, where its declaration documents no body`;
  if (body === '' || !documented.some((type) => covers(type, body)))
    return ` with ${sent}, where its declaration documents ${documented.join(', ')}`;
  return null;
}

export function watchStatuses(app: App): { undeclared(): string[] } {
  const observed = new Map<string, Observation>();
  // onSend sees the payload, with the status and the Content-Type the platform's onSend hook settled.
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    // Once the headers are out (a stream failing midway), or once the client has left (a page closed
    // while its event stream opened), what Fastify sends never reaches the client.
    if (url === undefined || request.method === 'HEAD' || reply.raw.headersSent || reply.raw.destroyed) return payload;
    const type = reply.getHeader('content-type');
    const observation: Observation = {
      method: request.method.toLowerCase(),
      path: documentPath(url),
      status: reply.statusCode,
      body: hasBody(payload) ? (typeof type === 'string' ? baseType(type) : '') : null,
    };
    observed.set(`${observation.method} ${observation.path} ${observation.status} ${observation.body}`, observation);
    return payload;
  });
  return {
    undeclared() {
      const paths = (app.swagger() as { paths: Record<string, Record<string, DocumentedOperation>> }).paths;
      const problems: string[] = [];
      for (const observation of observed.values()) {
        const operation = paths[observation.path]?.[observation.method];
        if (operation === undefined) continue; // not in the document (its own JSON, the docs page)
        const differs = difference(operation, observation);
        if (differs !== null)
          problems.push(
            `${observation.method.toUpperCase()} ${observation.path} answered ${observation.status}${differs}`,
          );
      }
      return problems;
    },
  };
}
