/**
 * Resolves once the server has answered its first request (that response finished or its connection
 * closed), or `maxWaitMs` after it is called when none comes (a stream that stays open, an idle server):
 * start-up work no request needs (the job queue's start: pg-boss's modules and its statements on
 * PGlite's one connection) waits for it, so that it does not delay the first answers. Nothing stays
 * attached to the server afterwards, so later requests pay nothing for it.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export function firstAnswer(server: Server, maxWaitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      server.off('request', onRequest);
      resolve();
    };
    const onRequest = (_request: IncomingMessage, response: ServerResponse) => {
      server.off('request', onRequest);
      response.once('close', done);
    };
    const timer = setTimeout(done, maxWaitMs);
    // Before Fastify's own listener, so the response is watched before anything can answer it.
    server.prependListener('request', onRequest);
  });
}
