/**
 * Ping through Fastify and nothing else of the service, in a process of its own: `GET /api/ping` runs
 * ping's statement (`SELECT 1`, prepared) on a `pg` pool of the service's size and answers ping's bytes
 * with their content type. `logged` adds what every request of the service pays around its own code:
 * Fastify given a pino logger at `info` (a child logger a request) and an `onResponse` hook writing
 * one access line (platform/http/access-log.ts itself, through pino's asynchronous destination into a
 * file, as src/server.ts logs). With either, Fastify also sets up each
 * response's `finish` and `error` listeners, which `bare` skips: the service pays for them anyway (its
 * metrics' `onResponse` hook), so `logged` against `bare` is the line and those listeners together.
 * Against ping's twin (bare node:http, the same statement and bytes) and ping itself, the pair splits
 * ping's gap into the framework's part, the line's and the rest of the service's per-request work.
 * Prints its port.
 * argv: databaseUrl poolSize bodyBase64 contentType bare|logged
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { registerAccessLog } from '../../src/platform/http/access-log.ts';
import type { App } from '../../src/platform/http/types.ts';

const [databaseUrl, poolSize, bodyBase64, contentType, mode] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(poolSize) });
// As the service's pool: a connection PostgreSQL closes while idle is replaced, not fatal.
pool.on('error', () => {});
const body = Buffer.from(bodyBase64!, 'base64');
const ping = { name: 'ping', text: 'SELECT 1' };
const logFolder = mode === 'logged' ? mkdtempSync(join(tmpdir(), 'tms-fastify-ping-')) : null;
process.on('exit', () => {
  if (logFolder !== null) rmSync(logFolder, { recursive: true, force: true });
});

const logger: FastifyBaseLogger | null =
  logFolder === null
    ? null
    : pino({ level: 'info' }, pino.destination({ dest: join(logFolder, 'access.log'), sync: false }));
const app: App = Fastify(
  logger !== null
    ? {
        loggerInstance: logger,
        logController: new LogController({ disableRequestLogging: true }),
      }
    : {},
).withTypeProvider<TypeBoxTypeProvider>();
// The service's own access line (one `onResponse` hook a route), registered before the route as app.ts does.
if (logger !== null) registerAccessLog(app);
app.get('/api/ping', async (_request, reply) => {
  await pool.query(ping);
  return reply.type(contentType!).send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
