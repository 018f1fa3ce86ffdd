/** Every operator command, in the order `help` lists them. Add yours: import it and append one line. */
import type { CliCommand } from './command.ts';
import { badgesAwardCommand } from './commands/badges-award.ts';
import { helpCommand } from './commands/help.ts';
import { usersCreateCommand } from './commands/users-create.ts';
import { xpAwardCommand } from './commands/xp-award.ts';

// biome-ignore format: one command a line, so adding one is a one-line change
export const commands: readonly CliCommand[] = [
  helpCommand,
  usersCreateCommand,
  xpAwardCommand,
  badgesAwardCommand,
];
