/** A `<user>` argument: a UUID, its 32-hex form, or a username (with or without a leading @). */
import type { UserRow } from '../areas/accounts/tables.ts';
import { parseUuidOrHex } from '../platform/http/ids.ts';
import { type CliContext, CliError } from './command.ts';

export async function resolveUser(context: Pick<CliContext, 'services'>, reference: string): Promise<UserRow> {
  const repository = context.services.accountsRepository;
  const trimmed = reference.trim();
  const id = parseUuidOrHex(trimmed);
  const user =
    id !== null ? await repository.findUserById(id) : await repository.findUserByUsername(trimmed.replace(/^@/, ''));
  if (user === null) throw new CliError(`no user ${JSON.stringify(reference)} (give an id, a 32-hex id or a username)`);
  return user;
}
