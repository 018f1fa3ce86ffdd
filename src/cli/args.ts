/** `--name value` / `--flag` options for commands, on node:util parseArgs, with usage errors as CliError. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { CliError } from './command.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseOptions<O extends Options>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError(`${(error as Error).message.split('\n')[0]} (usage: ${usage})`, 2);
  }
}

export function requireOption(value: string | undefined, name: string, usage: string): string {
  if (value === undefined || value === '') throw new CliError(`--${name} is required (usage: ${usage})`, 2);
  return value;
}
