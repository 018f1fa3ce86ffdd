/**
 * Every operator command, in the order `help` lists them: help, then each area's commands in area
 * order, then seed:demo (it spans every area, so it belongs to none).
 */
import { areaModules } from '../areas/areas.ts';
import type { CliCommand } from './command.ts';
import { helpCommand } from './commands/help.ts';
import { seedDemoCommand } from './seed-demo/seed-demo.command.ts';

export const commands: readonly CliCommand[] = [
  helpCommand,
  ...areaModules.flatMap((area) => area.cliCommands ?? []),
  seedDemoCommand,
];
