import { Value } from 'typebox/value';
import { parseOptions, requireOption } from '../../cli/args.ts';
import { type CliCommand, CliError } from '../../cli/command.ts';
import { NicknameSchema, UsernameSchema } from './usernames.ts';

const usage = '--email E --password P [--username U] [--nickname N] [--confirmed]';
const emailShape = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export const usersCreateCommand: CliCommand = {
  name: 'users:create',
  usage,
  description: 'Create an account (same rules as registration; no mail is sent) and print its id',
  async run({ areas, print }, args) {
    const { values, positionals } = parseOptions(
      args,
      {
        email: { type: 'string' },
        password: { type: 'string' },
        username: { type: 'string' },
        nickname: { type: 'string' },
        confirmed: { type: 'boolean' },
      },
      usage,
    );
    if (positionals.length > 0) throw new CliError(`unexpected argument ${positionals[0]} (usage: ${usage})`, 2);
    const email = requireOption(values.email, 'email', usage);
    const password = requireOption(values.password, 'password', usage);
    if (!emailShape.test(email) || email.length > 254)
      throw new CliError(`--email: ${JSON.stringify(email)} is not an e-mail address`, 2);
    if (values.username !== undefined && !Value.Check(UsernameSchema, values.username)) {
      throw new CliError('--username: 3 to 30 letters, digits, underscores or inner dots', 2);
    }
    if (values.nickname !== undefined && !Value.Check(NicknameSchema, values.nickname)) {
      throw new CliError('--nickname: 1 to 50 characters', 2);
    }
    const user = await areas.accounts.accounts.createAccount(
      { email, password, username: values.username, nickname: values.nickname },
      { confirmed: values.confirmed === true },
    );
    print(user.id);
  },
};
