import type { CliCommand } from '../command.ts';

export const helpCommand: CliCommand = {
  name: 'help',
  usage: '',
  description: 'List the commands',
  usesDatabase: false,
  async run({ commands, print }) {
    print('usage: npm run cli -- <command> [arguments]');
    print('');
    const width = Math.max(...commands.map((command) => `${command.name} ${command.usage}`.length));
    for (const command of commands)
      print(`  ${`${command.name} ${command.usage}`.padEnd(width)}  ${command.description}`);
  },
};
