/**
 * With PGlite the server process owns the database files, so a running server executes operator
 * commands itself: it listens on a Unix socket in DATA_DIR (mode 0600), the CLI sends its arguments,
 * and the command runs with the server's own services, so its transactions are ordinary PGlite
 * transactions of this process. (Serving the wire protocol instead would let the server's queries
 * run inside a CLI client's open transaction.)
 *
 * Protocol, one JSON object a line: the CLI sends {"argv":[...]}; the server answers any number of
 * {"out":"line"} and {"err":"line"}, then {"exit":N}.
 */
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type CommandEnvironment, executeCommand } from './execute.ts';

export const commandSocketPath = (dataDir: string) => join(dataDir, 'cli.sock');

function readRequest(socket: Socket): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const end = buffer.indexOf('\n');
      if (end === -1) {
        if (buffer.length > 64 * 1024) reject(new Error('request too long'));
        return;
      }
      socket.off('data', onData);
      try {
        const request = JSON.parse(buffer.slice(0, end)) as { argv?: unknown };
        if (!Array.isArray(request.argv) || !request.argv.every((arg) => typeof arg === 'string')) {
          throw new Error('argv must be an array of strings');
        }
        resolve(request.argv);
      } catch (error) {
        reject(error);
      }
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
}

export async function startCommandServer(
  dataDir: string,
  environment: CommandEnvironment,
  logger: FastifyBaseLogger,
): Promise<{ stop(): Promise<void> }> {
  const path = commandSocketPath(dataDir);
  if (existsSync(path)) unlinkSync(path); // left by a process that did not stop cleanly
  const running = new Set<Promise<unknown>>();

  const server = createServer((socket) => {
    const send = (message: object) => socket.writable && socket.write(`${JSON.stringify(message)}\n`);
    const handled = readRequest(socket)
      .then(async (argv) => {
        logger.info({ event: 'cli.command', argv: argv.slice(0, 1) }, `operator command ${argv[0] ?? 'help'}`);
        const exit = await executeCommand(argv, async () => ({ environment, close: async () => {} }), {
          print: (line) => send({ out: line }),
          printError: (line) => send({ err: line }),
        });
        send({ exit });
      })
      .catch((error: unknown) => send({ err: `error: ${(error as Error).message}`, exit: 2 }))
      .finally(() => {
        socket.end();
        running.delete(handled);
      });
    running.add(handled);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  chmodSync(path, 0o600);
  return {
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...running]);
      if (existsSync(path)) unlinkSync(path);
    },
  };
}
