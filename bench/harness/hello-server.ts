/** The bare node:http anchor, in a process of its own: prints its port, then answers "hello world". */
import { createServer } from 'node:http';

const server = createServer((_request, response) =>
  response.writeHead(200, { 'content-type': 'text/plain' }).end('hello world'),
);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
