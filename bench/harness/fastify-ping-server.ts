/**
 * Ping through Fastify and nothing else of the service, in a process of its own: `GET /api/ping` runs
 * ping's statement (`SELECT 1`, prepared) on a `pg` pool of the service's size and answers ping's bytes
 * with their content type. `logged` adds what every request of the service pays before its own code:
 * Fastify given a pino logger at `info` (a child logger a request) and an `onResponse` hook writing
 * one access line (the service's shape, through pino's asynchronous destination into a file), as
 * src/server.ts and platform/http/access-log.ts do. Against ping's twin (bare node:http, the same
 * statement and bytes) and ping itself, the pair splits ping's gap into the framework's part, the
 * access line's and the rest of the service's per-request work. Prints its port.
 * argv: databaseUrl poolSize bodyBase64 contentType bare|logged
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { LogController } from 'fastify';
import pg from 'pg';
import pino from 'pino';

const [databaseUrl, poolSize, bodyBase64, contentType, mode] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(poolSize) });
const body = Buffer.from(bodyBase64!, 'base64');
const ping = { name: 'ping', text: 'SELECT 1' };
const logFolder = mkdtempSync(join(tmpdir(), 'tms-fastify-ping-'));

const app = Fastify(
  mode === 'logged'
    ? {
        loggerInstance: pino({ level: 'info' }, pino.destination({ dest: join(logFolder, 'access.log'), sync: false })),
        logController: new LogController({ disableRequestLogging: true }),
      }
    : {},
);
if (mode === 'logged') {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        event: 'http.request',
        method: request.method,
        route: '/api/ping',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
}
app.get('/api/ping', async (_request, reply) => {
  await pool.query(ping);
  return reply.type(contentType!).send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
process.on('SIGTERM', () => {
  rmSync(logFolder, { recursive: true, force: true });
  process.exit(0);
});
