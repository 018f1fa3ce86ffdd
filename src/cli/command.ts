/**
 * What every operator command is and receives. Add a command: one file `<name>.command.ts` in its
 * area, listed in the area module's `cliCommands`.
 */
import type { Config } from '../config.ts';
import type { AreaServices, Platform } from '../platform/modules/area-module.ts';

export interface CliContext {
  config: Config;
  /** The services of every area, on the same database the server uses. */
  areas: AreaServices;
  platform: Platform;
  /** Where the command runs: on the CLI's PostgreSQL connection, inside the running server, or on the PGlite files. */
  via: 'postgres' | 'server' | 'pglite-files';
  /** Every registered command (for help). */
  commands: readonly CliCommand[];
  /** Prints one line of the command's result on stdout. */
  print(line: string): void;
  /** Where relative paths in the arguments start: the operator's directory, also when the server runs the command. */
  cwd?: string;
  /** Shows a transient status line (a progress bar) on the operator's terminal; absent when stderr is not one. */
  progress?(line: string): void;
}

export interface CliCommand {
  name: string;
  /** Arguments after the name, e.g. `--email E --password P [--confirmed]`. */
  usage: string;
  description: string;
  /** false for commands that never touch the data (help); the database is then not opened. */
  usesDatabase?: boolean;
  run(context: CliContext, args: string[]): Promise<void>;
}

/** A failure to report as one line (exit 1), or a usage mistake (exit 2). */
export class CliError extends Error {
  readonly exitCode;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}
