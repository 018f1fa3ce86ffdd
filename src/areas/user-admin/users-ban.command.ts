/**
 * `users:ban <user> --reason R [--until T]` and `users:unban <user>`: the ban and unban of the admin
 * routes (PUT /admin/users/{hex}/ban, .../unban) through the same service, accounts.moderation, so the
 * same rules, events and effects follow; audited with the actor `cli`.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { parseOptions, requireOption } from '../../cli/args.ts';
import { type CliCommand, CliError } from '../../cli/command.ts';
import { formatTimestamp, parseClientTime } from '../../platform/http/time.ts';
import { resolveUser } from '../accounts/public.ts';

const banUsage = '<user> --reason R [--until 2027-01-31T12:00:00Z]';
const unbanUsage = '<user>';

/** RFC 3339 with its offset: the `date-time` format the admin route's schema checks `until` with. */
const isDateTime = (fullFormats['date-time'] as { validate: (value: string) => boolean }).validate;

function oneUser(positionals: string[], usage: string): string {
  const [user] = positionals;
  if (positionals.length !== 1 || user === undefined) throw new CliError(`one <user> is required (usage: ${usage})`, 2);
  return user;
}

function banEnd(value: string | undefined): Date | null {
  if (value === undefined) return null;
  const until = isDateTime(value) ? parseClientTime(value) : null;
  if (until === null) {
    throw new CliError(`--until: ${JSON.stringify(value)} is not an RFC 3339 time between the years 1 and 9999`, 2);
  }
  return until;
}

export const usersBanCommand: CliCommand = {
  name: 'users:ban',
  usage: banUsage,
  description: 'Ban an account as the admin route does: its sessions end and its content leaves public view',
  async run({ areas, print }, args) {
    const { values, positionals } = parseOptions(
      args,
      { reason: { type: 'string' }, until: { type: 'string' } },
      banUsage,
    );
    const reference = oneUser(positionals, banUsage);
    const reason = requireOption(values.reason, 'reason', banUsage);
    const until = banEnd(values.until);
    const user = await resolveUser(areas.accounts.users, reference);
    const banned = await areas.userAdmin.moderation.ban(user.id, { reason, until }, 'cli');
    print(
      `${banned.id} banned ${banned.bannedUntil === null ? 'until lifted' : `until ${formatTimestamp(banned.bannedUntil)}`}`,
    );
  },
};

export const usersUnbanCommand: CliCommand = {
  name: 'users:unban',
  usage: unbanUsage,
  description: 'Lift the ban of an account as the admin route does: its content comes back',
  async run({ areas, print }, args) {
    const { positionals } = parseOptions(args, {}, unbanUsage);
    const user = await resolveUser(areas.accounts.users, oneUser(positionals, unbanUsage));
    const { user: row, changed } = await areas.userAdmin.moderation.unban(user.id, 'cli');
    print(`${row.id} ${changed ? 'unbanned' : 'was not banned'}`);
  },
};
