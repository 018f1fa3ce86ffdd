import { type CliCommand, CliError } from '../../cli/command.ts';
import { resolveUser } from '../accounts/public.ts';

const usage = '<user> <amount>';

export const xpAwardCommand: CliCommand = {
  name: 'xp:award',
  usage,
  description: 'Give experience to a user (notifies each level and title crossed) and print the new level',
  async run(context, args) {
    const [reference, rawAmount, ...extra] = args;
    if (reference === undefined || rawAmount === undefined || extra.length > 0)
      throw new CliError(`usage: xp:award ${usage}`, 2);
    if (!/^\d+$/.test(rawAmount) || Number(rawAmount) < 1 || !Number.isSafeInteger(Number(rawAmount))) {
      throw new CliError(`<amount>: ${JSON.stringify(rawAmount)} is not a positive integer`, 2);
    }
    const user = await resolveUser(context.areas.accounts.users, reference);
    const award = await context.areas.gamification.gamification.awardExperience(
      user.id,
      Number(rawAmount),
      'cli.xp:award',
    );
    context.print(`${user.id} experience ${award.experience} level ${award.previousLevel} -> ${award.level}`);
  },
};
