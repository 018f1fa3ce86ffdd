/** The @fastify/static anchor, in a process of its own: serves the directory in argv[2] under /static/, prints its port. */
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
await app.register(fastifyStatic, { root: process.argv[2]!, prefix: '/static/', maxAge: '365d', immutable: true });
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
