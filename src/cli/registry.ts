/** Every operator command, in the order `help` lists them: help, then each area's commands in area order. */
import { areaModules } from '../areas/areas.ts';
import type { CliCommand } from './command.ts';
import { helpCommand } from './commands/help.ts';

export const commands: readonly CliCommand[] = [helpCommand, ...areaModules.flatMap((area) => area.cliCommands ?? [])];
