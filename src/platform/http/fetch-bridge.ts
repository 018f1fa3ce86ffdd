/**
 * Mounts a fetch-style handler (a `Request` in, a `Response` out: Fedify's `federation.fetch`) on
 * some paths of the Fastify app. The request is handed over with its exact bytes: the paths live in
 * a scope of their own whose only body parser keeps the body as the Buffer that arrived, since an
 * HTTP signature's digest covers those bytes and a JSON round trip would change them. The handler
 * answers null for a request it has nothing for: a 404 of the service's own (HTML or JSON).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './error-catalogue.ts';
import type { App, RateLimitRule } from './types.ts';

export interface FetchBridgeOptions {
  /** Paths served exactly, and one prefix (ending in `/`) served with everything under it. */
  exactPaths: readonly string[];
  prefix: string;
  /** The service's public origin: the URL the handler sees is this origin and the request's path. */
  publicUrl: string;
  /** The largest body taken, in bytes (413 beyond). */
  bodyLimit: number;
  /** Counted before the handler, in order (rate-limit.ts; nothing with RATE_LIMITS=off). */
  rateLimit: RateLimitRule[];
  handle(request: Request): Promise<Response | null>;
}

/** Headers Node writes itself from the body it sends. */
const framingHeaders = new Set(['content-length', 'transfer-encoding', 'connection']);

function webRequestOf(request: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : (request.body as Buffer | undefined);
  return new Request(new URL(request.url, publicUrl), {
    method: request.method,
    headers,
    body: body === undefined || body.length === 0 ? undefined : new Uint8Array(body),
  });
}

async function send(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (!framingHeaders.has(name)) reply.header(name, value);
  });
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

export async function registerFetchBridge(app: App, options: FetchBridgeOptions): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimit }, (_request, body, done) =>
      done(null, body),
    );
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const response = await options.handle(webRequestOf(request, options.publicUrl));
      if (response === null) throw new AppError('notFound');
      return send(reply, response);
    };
    for (const url of [...options.exactPaths, `${options.prefix}*`]) {
      // Not in the OpenAPI document: the protocols (WebFinger, NodeInfo, ActivityPub) define these answers.
      scope.route({
        method: ['GET', 'POST'],
        url,
        schema: { hide: true },
        config: { rateLimit: options.rateLimit },
        handler,
      });
    }
  });
}
