/**
 * A `<user>` argument of an operator command: a UUID, its 32-hex form, or a username (with or without
 * a leading @). Any account, as the admin routes: a banned one too (users:unban needs it).
 */
import { CliError } from '../../cli/command.ts';
import { parseUuidOrHex } from '../../platform/ids/ids.ts';
import type { UserRow } from './tables.ts';
import type { UsersService } from './users.service.ts';

export async function resolveUser(users: UsersService, reference: string): Promise<UserRow> {
  const trimmed = reference.trim();
  const id = parseUuidOrHex(trimmed);
  const user = id !== null ? await users.find(id) : await users.findAnyByUsername(trimmed.replace(/^@/, ''));
  if (user === null) throw new CliError(`no user ${JSON.stringify(reference)} (give an id, a 32-hex id or a username)`);
  return user;
}
