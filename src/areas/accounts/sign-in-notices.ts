/**
 * Files the mails that tell an owner of a change to how their account signs in (mails/
 * sign-in-notice-mail.ts), in the transaction of the change, in the locale of the request that
 * caused it; and decides what a new device is (docs/api.md, Two-factor authentication): a user agent
 * and a network (IPv4 /24, IPv6 /48) not seen on a sign-in of this account in the last 90 days. The
 * account's first sign-in (its registration) tells nobody anything.
 */
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Clock } from '../../platform/clock.ts';
import { defaultLocale, type Locale } from '../../platform/i18n/i18n.ts';
import { mailTime } from '../../platform/mail-outbox/mail-layout.ts';
import type { MailOutbox } from '../../platform/mail-outbox/mail-outbox.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { ClientInfo } from './client-info.ts';
import { type SignInNoticeKind, signInNoticeMail } from './mails/sign-in-notice-mail.ts';
import type { UserRow } from './tables.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';

export const newDeviceAfterDays = 90;

/** The network an address belongs to: its /24 (IPv4, IPv4-mapped IPv6 included) or its /48 (IPv6). */
export function networkOf(ip: string): string {
  const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(ip)) {
    // Expand `::` so that the first three groups are the address's own.
    const [head = '', tail = ''] = ip.split('::');
    const headGroups = head === '' ? [] : head.split(':');
    const tailGroups = tail === '' ? [] : tail.split(':');
    const groups = ip.includes('::')
      ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
      : headGroups;
    return `${groups
      .slice(0, 3)
      .map((group) => Number.parseInt(group, 16).toString(16))
      .join(':')}::/48`;
  }
  return ip;
}

export interface SignInNoticesDeps {
  accounts: AccountsRepository;
  repository: TwoFactorRepository;
  mail: MailOutbox;
  clock: Clock;
}

export class SignInNotices {
  readonly #deps: SignInNoticesDeps;

  constructor(deps: SignInNoticesDeps) {
    this.#deps = deps;
  }

  /** Files one notice to the account's address (in the caller's transaction). */
  async send(
    user: Pick<UserRow, 'email' | 'nickname' | 'username' | 'anonymizedAt'>,
    kind: SignInNoticeKind,
    locale: Locale | undefined,
    values: Record<string, string | number> = {},
  ): Promise<void> {
    if (user.anonymizedAt !== null) return;
    const message = signInNoticeMail({
      kind,
      locale: locale ?? defaultLocale,
      to: user.email,
      name: user.nickname ?? user.username,
      values: { time: mailTime(this.#deps.clock.now()), ...values },
    });
    await this.#deps.mail.file(message, `sign-in-notice.${kind}`);
  }

  /** What a notice says of the device a request came from. */
  static deviceValues(client: ClientInfo): Record<string, string> {
    return { device: client.userAgent ?? '?', ip: client.ip };
  }

  /** Records the device of a new session, and mails the owner when it is new to the account. */
  async signedIn(userId: string, client: ClientInfo): Promise<void> {
    const now = this.#deps.clock.now();
    const network = networkOf(client.ip);
    const deviceKey = createHash('sha256')
      .update(`${client.userAgent ?? ''}\n${network}`)
      .digest('hex');
    const knownAccount = await this.#deps.repository.hasDevices(userId);
    const lastSeen = await this.#deps.repository.recordDevice(
      { userId, deviceKey, userAgent: client.userAgent, network },
      now,
    );
    const fresh = lastSeen === null || now.getTime() - lastSeen.getTime() > newDeviceAfterDays * 86_400_000;
    if (!knownAccount || !fresh) return;
    const user = await this.#deps.accounts.findUserById(userId);
    if (user !== null) await this.send(user, 'newDevice', client.locale, SignInNotices.deviceValues(client));
  }
}
