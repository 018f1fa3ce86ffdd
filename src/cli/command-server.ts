/**
 * With PGlite the server process owns the database files, so a running server executes operator
 * commands itself: it listens on a Unix socket in DATA_DIR (mode 0600), the CLI sends its arguments,
 * and the command runs with the server's own services, so its transactions are ordinary PGlite
 * transactions of this process. (Serving the wire protocol instead would let the server's queries
 * run inside a CLI client's open transaction.)
 *
 * Protocol, one JSON object a line: the CLI sends {"argv":[...],"cwd":"/its/directory","progress":bool}
 * (cwd and progress optional: relative paths start in cwd; progress asks for {"progress":"line"} status
 * lines, for a terminal); the server answers any number of {"out":"line"}, {"err":"line"} and
 * {"progress":"line"}, then {"exit":N}.
 */
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { isAbsolute, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type CommandEnvironment, executeCommand } from './execute.ts';

export const commandSocketPath = (dataDir: string) => join(dataDir, 'cli.sock');

interface CommandRequest {
  argv: string[];
  cwd?: string;
  progress?: boolean;
}

function readRequest(socket: Socket): Promise<CommandRequest> {
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
        const request = JSON.parse(buffer.slice(0, end)) as { argv?: unknown; cwd?: unknown; progress?: unknown };
        if (!Array.isArray(request.argv) || !request.argv.every((arg) => typeof arg === 'string')) {
          throw new Error('argv must be an array of strings');
        }
        if (request.cwd !== undefined && (typeof request.cwd !== 'string' || !isAbsolute(request.cwd))) {
          throw new Error('cwd must be an absolute path');
        }
        resolve({ argv: request.argv, cwd: request.cwd as string | undefined, progress: request.progress === true });
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
      .then(async ({ argv, cwd, progress }) => {
        logger.info({ event: 'cli.command', argv: argv.slice(0, 1) }, `operator command ${argv[0] ?? 'help'}`);
        const open = async () => ({
          environment: { ...environment, cwd: cwd ?? environment.cwd },
          close: async () => {},
        });
        const exit = await executeCommand(argv, open, {
          print: (line) => send({ out: line }),
          printError: (line) => send({ err: line }),
          progress: progress ? (line) => send({ progress: line }) : undefined,
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
