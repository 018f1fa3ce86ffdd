import { type CliCommand, CliError } from '../../cli/command.ts';
import { resolveUser } from '../accounts/public.ts';

const usage = '<user> <badgeSlug> <level>';

export const badgesAwardCommand: CliCommand = {
  name: 'badges:award',
  usage,
  description: 'Raise a badge of a user to a level (notifies each level crossed and gives its experience)',
  async run(context, args) {
    const [reference, slug, rawLevel, ...extra] = args;
    if (reference === undefined || slug === undefined || rawLevel === undefined || extra.length > 0) {
      throw new CliError(`usage: badges:award ${usage}`, 2);
    }
    if (!/^\d+$/.test(rawLevel) || Number(rawLevel) < 1)
      throw new CliError(`<level>: ${JSON.stringify(rawLevel)} is not a positive integer`, 2);
    const user = await resolveUser(context.areas.accounts.users, reference);
    const award = await context.areas.gamification.gamification.awardBadgeLevel(user.id, slug, Number(rawLevel));
    context.print(`${user.id} ${award.badgeSlug} level ${award.previousLevel} -> ${award.level}`);
  },
};
