/**
 * Runs one operator command line against an environment (config, services, database) and turns
 * every failure into one line and an exit code: 1 when the command failed, 2 for a usage mistake.
 * The CLI process uses it on its own connection; a running server uses it for commands sent to it.
 */
import { DrizzleQueryError } from 'drizzle-orm';
import { ConfigError } from '../config.ts';
import { databaseError } from '../platform/db/errors.ts';
import { AppError } from '../platform/http/error-catalogue.ts';
import { defaultLocale, translate } from '../platform/i18n/i18n.ts';
import { type CliContext, CliError } from './command.ts';
import { commands } from './registry.ts';

export type CommandEnvironment = Omit<CliContext, 'commands' | 'print' | 'progress'>;

export interface CommandOutput {
  print(line: string): void;
  printError(line: string): void;
  /** A transient status line, only where the operator sees a terminal. */
  progress?(line: string): void;
}

/**
 * One line for an error: a coded domain error with its title, detail and field, what the database
 * said of a failed statement (never the statement or its values, which Drizzle's message quotes), or
 * the message.
 */
export function describeError(error: unknown): string {
  if (error instanceof CliError) return error.message;
  if (error instanceof ConfigError) return `configuration: ${error.problems.join('; ')}`;
  if (error instanceof AppError) {
    const field = error.options.source?.pointer?.replace(/^\//, '');
    const title = translate(defaultLocale, `errors.${error.code}`, error.options.values);
    const detail = error.options.detail ? ` (${error.options.detail})` : '';
    return `${error.code}: ${title}${detail}${field ? ` [--${field}]` : ''}`;
  }
  const database = databaseError(error);
  if (database !== null) return `database error ${database.code}: ${database.message}`;
  if (error instanceof DrizzleQueryError)
    return `database error: ${(error.cause as Error | undefined)?.message ?? 'unknown'}`;
  return error instanceof Error ? error.message : String(error);
}

const unavailable = (what: string) => () => {
  throw new Error(`${what} is not open for commands declared with usesDatabase: false`);
};

/** Runs argv; `open` is called only for commands that use the data. Never throws. */
export async function executeCommand(
  argv: string[],
  open: () => Promise<{ environment: CommandEnvironment; close(): Promise<void> }>,
  output: CommandOutput,
): Promise<number> {
  try {
    const [name = 'help', ...args] = argv;
    const command = commands.find((candidate) => candidate.name === name);
    if (command === undefined) {
      throw new CliError(
        `unknown command ${JSON.stringify(name)}; commands: ${commands.map((c) => c.name).join(', ')}`,
        2,
      );
    }
    if (command.usesDatabase === false) {
      const context = { commands, print: output.print } as unknown as CliContext;
      for (const key of ['config', 'areas', 'platform', 'database', 'via'] as const) {
        Object.defineProperty(context, key, { get: unavailable(key) });
      }
      await command.run(context, args);
      return 0;
    }
    const { environment, close } = await open();
    try {
      await command.run({ ...environment, commands, print: output.print, progress: output.progress }, args);
    } finally {
      await close();
    }
    return 0;
  } catch (error) {
    output.printError(`error: ${describeError(error)}`);
    if (
      !(error instanceof CliError || error instanceof AppError || error instanceof ConfigError) &&
      process.env.CLI_DEBUG
    ) {
      output.printError(String((error as Error)?.stack ?? error));
    }
    return error instanceof CliError ? error.exitCode : 1;
  }
}
