/**
 * `users:reset-two-factor <user>`: turns two-factor authentication off for an owner who lost their
 * authenticator and their recovery codes (after the operator checked who they are), through
 * accounts.twoFactor.reset: the secret and the codes go, the owner is mailed, the audit log records
 * it with the actor `cli`.
 */
import { parseOptions } from '../../cli/args.ts';
import { type CliCommand, CliError } from '../../cli/command.ts';
import { resolveUser } from './resolve-user.ts';

const usage = '<user>';

export const usersResetTwoFactorCommand: CliCommand = {
  name: 'users:reset-two-factor',
  usage,
  description: 'Turn two-factor authentication off for an account (audited; the owner is mailed)',
  async run({ areas, print }, args) {
    const { positionals } = parseOptions(args, {}, usage);
    const [reference] = positionals;
    if (positionals.length !== 1 || reference === undefined) {
      throw new CliError(`one <user> is required (usage: ${usage})`, 2);
    }
    const user = await resolveUser(areas.accounts.users, reference);
    const reset = await areas.accounts.twoFactor.reset(user.id, 'cli');
    print(`${user.id} ${reset ? 'two-factor authentication turned off' : 'had no two-factor authentication'}`);
  },
};
