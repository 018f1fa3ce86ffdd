/**
 * Operator commands: `npm run cli -- <command> [arguments]` (`help` lists them; see src/cli/registry.ts).
 * Works while the server runs, on both engines (src/cli/connect.ts). A failure prints one line on
 * stderr and exits non-zero: 1 when the command failed, 2 for a usage mistake.
 */
import { type CliCommand, type CliContext, CliError } from './cli/command.ts';
import { openCliDatabase } from './cli/connect.ts';
import { cliServices } from './cli/context.ts';
import { commands } from './cli/registry.ts';
import { ConfigError, loadConfig } from './config.ts';
import { AppError } from './platform/http/error-catalogue.ts';
import { defaultLocale, translate } from './platform/i18n/i18n.ts';

/** One line for an error: a coded domain error with its title, detail and field, or the message. */
function describeError(error: unknown): string {
  if (error instanceof CliError) return error.message;
  if (error instanceof ConfigError) return `configuration: ${error.problems.join('; ')}`;
  if (error instanceof AppError) {
    const field = error.options.source?.pointer?.replace(/^\//, '');
    const title = translate(defaultLocale, `errors.${error.code}`, error.options.values);
    const detail = error.options.detail ? ` (${error.options.detail})` : '';
    return `${error.code}: ${title}${detail}${field ? ` [--${field}]` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}

const unavailable = (what: string) => () => {
  throw new Error(`${what} is not open for commands declared with usesDatabase: false`);
};

async function run(argv: string[]): Promise<number> {
  const [name = 'help', ...args] = argv;
  const command: CliCommand | undefined = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    throw new CliError(
      `unknown command ${JSON.stringify(name)}; commands: ${commands.map((c) => c.name).join(', ')}`,
      2,
    );
  }
  const print = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  if (command.usesDatabase === false) {
    const context = { commands, print } as unknown as CliContext;
    for (const key of ['config', 'services', 'database', 'via'] as const) {
      Object.defineProperty(context, key, { get: unavailable(key) });
    }
    await command.run(context, args);
    return 0;
  }
  const config = loadConfig();
  const { database, via } = await openCliDatabase(config);
  try {
    const services = cliServices(config, database);
    await command.run({ config, services, database, via, commands, print }, args);
  } finally {
    await database.close();
  }
  return 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${describeError(error)}\n`);
    if (
      !(error instanceof CliError || error instanceof AppError || error instanceof ConfigError) &&
      process.env.CLI_DEBUG
    ) {
      console.error(error);
    }
    process.exit(error instanceof CliError ? error.exitCode : 1);
  },
);
