/**
 * What every operator command is and receives. Add a command: one file `<name>.command.ts` in its
 * area, listed in the area module's `cliCommands`.
 */
// Declared beside AreaModule, which lists an area's commands (no import cycle between the two).
export type { CliCommand, CliContext } from '../platform/modules/area-module.ts';

/** A failure to report as one line (exit 1), or a usage mistake (exit 2). */
export class CliError extends Error {
  readonly exitCode;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}
