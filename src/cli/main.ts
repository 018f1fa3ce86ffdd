/**
 * Operator commands: `npm run cli -- <command> [arguments]` (`help` lists them; see src/cli/registry.ts).
 * Works while the server runs, on both engines (CONTRACT.md): with DATABASE_URL the CLI connects to
 * PostgreSQL; with PGlite a running server executes the command itself (src/cli/command-server.ts),
 * and only when none answers does the CLI open DATA_DIR/db. A failure prints one line on stderr and
 * exits non-zero: 1 when the command failed, 2 for a usage mistake.
 */

import { loadConfig } from '../config.ts';
import { runOnServer } from './command-client.ts';
import { openCliDatabase } from './connect.ts';
import { cliServices } from './context.ts';
import { type CommandOutput, describeError, executeCommand } from './execute.ts';

// A progress line is redrawn in place on stderr, and erased before any other output.
let progressShown = false;
const clearProgress = () => {
  if (progressShown) process.stderr.write('\r\x1b[K');
  progressShown = false;
};
const output: CommandOutput = {
  print: (line) => {
    clearProgress();
    process.stdout.write(`${line}\n`);
  },
  printError: (line) => {
    clearProgress();
    process.stderr.write(`${line}\n`);
  },
  progress: process.stderr.isTTY
    ? (line) => {
        process.stderr.write(`\r\x1b[K${line}`);
        progressShown = true;
      }
    : undefined,
};

async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
  if (config.databaseUrl === null) {
    const exit = await runOnServer(config.dataDir, argv, output);
    if (exit !== null) return exit;
  }
  return executeCommand(
    argv,
    async () => {
      const { database, via } = await openCliDatabase(config);
      const services = await cliServices(config, database);
      return {
        environment: { config, ...services, via, cwd: process.cwd() },
        close: async () => {
          await services.platform.broadcast.close();
          await database.close();
        },
      };
    },
    output,
  );
}

main(process.argv.slice(2)).then(
  (code) => {
    clearProgress();
    process.exit(code);
  },
  (error: unknown) => {
    output.printError(`error: ${describeError(error)}`);
    process.exit(1);
  },
);
