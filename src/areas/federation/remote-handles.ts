/**
 * A remote account as a user names it (docs/api.md, Federation): `ana@host`, `@ana@host`, or the
 * actor's `http(s)` URL. The local server's own accounts are refused (422 localHandle): they are
 * followed by id.
 */
import { AppError } from '../../platform/http/error-catalogue.ts';

export type RemoteHandle = { kind: 'acct'; username: string; host: string } | { kind: 'url'; url: URL };

/** The longest handle taken (a URL included). */
export const handleMaxLength = 500;

/** Mastodon's and Pixelfed's usernames (letters, digits, `_`, `.`, `-`) at a host name with an optional port. */
const acctPattern =
  /^@?([\p{L}\p{N}_.~-]+)@((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?::\d{1,5})?)$/iu;

const invalid = (detail: string) => new AppError('invalidHandle', { source: { pointer: '/handle' }, detail });

export function parseRemoteHandle(input: string, publicUrl: string): RemoteHandle {
  const text = input.trim();
  const localHost = new URL(publicUrl).host.toLowerCase();
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalid('not a valid URL');
    }
    if (url.username !== '' || url.password !== '') throw invalid('a URL with credentials');
    if (url.host.toLowerCase() === localHost) throw localAccount();
    return { kind: 'url', url };
  }
  const match = acctPattern.exec(text);
  if (match?.[1] === undefined || match[2] === undefined) throw invalid('expected name@host, @name@host or a URL');
  const host = match[2].toLowerCase();
  if (host === localHost) throw localAccount();
  return { kind: 'acct', username: match[1], host };
}

const localAccount = () =>
  new AppError('localHandle', {
    source: { pointer: '/handle' },
    detail: 'an account of this server: POST /api/users/me/following/{targetUserId}',
  });
