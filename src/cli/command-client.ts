/** The CLI's side of the command socket (see command-server.ts). */
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { commandSocketPath } from './command-server.ts';
import type { CommandOutput } from './execute.ts';

/** Errors that mean "no server is listening there": run the command locally instead. */
const noServer = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK']);

/** Runs argv on the server serving dataDir and returns its exit code, or null when none answers. */
export function runOnServer(dataDir: string, argv: string[], output: CommandOutput): Promise<number | null> {
  const path = commandSocketPath(dataDir);
  if (!existsSync(path)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let connected = false;
    let exit: number | null = null;
    let buffer = '';
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ argv, cwd: process.cwd(), progress: output.progress !== undefined })}\n`);
    });
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end = buffer.indexOf('\n');
      while (end !== -1) {
        const message = JSON.parse(buffer.slice(0, end)) as {
          out?: string;
          err?: string;
          progress?: string;
          exit?: number;
        };
        buffer = buffer.slice(end + 1);
        if (message.progress !== undefined) output.progress?.(message.progress);
        if (message.out !== undefined) output.print(message.out);
        if (message.err !== undefined) output.printError(message.err);
        if (message.exit !== undefined) exit = message.exit;
        end = buffer.indexOf('\n');
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && noServer.has(error.code ?? '')) resolve(null);
      else reject(error);
    });
    socket.on('close', () => {
      if (!connected) return;
      if (exit === null) reject(new Error('the server closed the connection before the command ended'));
      else resolve(exit);
    });
  });
}
