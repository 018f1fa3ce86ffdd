/** Registration, login and the caller's own account. */
import type { Clock } from '../../platform/clock.ts';
import { uniqueViolation } from '../../platform/db/errors.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { defaultLocale, type Locale } from '../../platform/i18n/i18n.ts';
import { newId, toHex } from '../../platform/ids/ids.ts';
import type { AccountsRepository, UserWithBirthCity } from './accounts.repository.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { ModerationService } from './moderation.service.ts';
import { decoyPasswordHash, hashPassword, isStrongEnough, newSponsorCode, verifyPassword } from './secrets.ts';
import type { ClientInfo, SessionsService, SignInMethod } from './sessions.service.ts';
import type { UserRow, UserSettings } from './tables.ts';
import { checkedNickname, isReservedUsername } from './usernames.ts';

export interface Registration {
  email: string;
  password: string;
  username?: string;
  nickname?: string;
  sponsorCode?: string;
  /** Redeemed in the registration's transaction by the coupons area (through `user.registered`). */
  couponCode?: string;
}

export interface AccountsServiceDeps {
  repository: AccountsRepository;
  sessions: SessionsService;
  clock: Clock;
  transactions: Transactions;
  events: EventBus;
  moderation: ModerationService;
  throttle: LoginThrottle;
}

export class AccountsService {
  readonly #deps: AccountsServiceDeps;

  constructor(deps: AccountsServiceDeps) {
    this.#deps = deps;
  }

  /** Maps unique-constraint violations on users to the documented 409s. */
  static conflictFor(error: unknown): AppError | null {
    const constraint = uniqueViolation(error);
    if (constraint === null) return null;
    if (constraint.includes('email')) return new AppError('emailTaken', { source: { pointer: '/email' } });
    if (constraint.includes('username')) return new AppError('usernameTaken', { source: { pointer: '/username' } });
    return new AppError('conflict');
  }

  /** The account, its first session and `user.registered` (the confirmation mail follows the commit). */
  async register(input: Registration, client: ClientInfo, locale: Locale = defaultLocale) {
    return this.#deps.transactions.run(async () => {
      const user = await this.createAccount(input);
      const { session, accessToken } = await this.#deps.sessions.create(user, client);
      await this.#deps.events.publish('user.registered', { user, locale, couponCode: input.couponCode });
      return { user, session, accessToken };
    });
  }

  /**
   * Creates an account without signing in or mailing (registration, the operator's `users:create`,
   * the demo world); `user.created` follows, as for every new account.
   */
  async createAccount(input: Registration, options: { confirmed?: boolean } = {}): Promise<UserRow> {
    if (!isStrongEnough(input.password)) throw new AppError('weakPassword', { source: { pointer: '/password' } });
    if (input.username !== undefined && isReservedUsername(input.username)) {
      throw new AppError('usernameTaken', { source: { pointer: '/username' }, detail: 'this username is reserved' });
    }
    const nickname = input.nickname === undefined ? null : checkedNickname(input.nickname);
    let sponsorId: string | null = null;
    if (input.sponsorCode !== undefined) {
      const sponsor = await this.#deps.repository.findUserBySponsorCode(input.sponsorCode);
      if (sponsor === null) {
        throw new AppError('validationFailed', {
          source: { pointer: '/sponsorCode' },
          detail: 'no account has this sponsor code',
        });
      }
      sponsorId = sponsor.id;
    }
    return this.#insertUser({
      email: input.email,
      passwordHash: await hashPassword(input.password),
      username: input.username ?? null,
      nickname,
      sponsoredBy: sponsorId,
      confirmed: options.confirmed ?? false,
    });
  }

  /**
   * An account opened by an identity provider's first sign-in (the identities area, in its
   * transaction): no password, no username until POST /api/users/me/username, the e-mail confirmed
   * when the provider vouches for it. Its first session and `user.registered` as register() does, and
   * `user.emailConfirmed` when confirmed (as a confirmation link would).
   */
  async registerWithProvider(
    input: { email: string; emailVerified: boolean },
    client: ClientInfo,
    locale: Locale,
    method: SignInMethod,
  ) {
    return this.#deps.transactions.run(async () => {
      const user = await this.#insertUser({
        email: input.email,
        passwordHash: null,
        username: null,
        nickname: null,
        sponsoredBy: null,
        confirmed: input.emailVerified,
      });
      const { session, accessToken } = await this.#deps.sessions.create(user, client, method);
      await this.#deps.events.publish('user.registered', { user, locale });
      if (input.emailVerified)
        await this.#deps.events.publish('user.emailConfirmed', {
          userId: user.id,
          sponsoredBy: null,
          proof: 'provider',
        });
      return { user, session, accessToken };
    });
  }

  /**
   * The local shadow of a remote actor (federation, docs/development.md): no password, no username, an
   * address nobody reaches (never found by e-mail: accounts.repository.ts), its handle and its name as
   * plain text. Made by federation only, the first time the actor acts here.
   */
  async createRemoteUser(input: { handle: string; nickname: string | null }): Promise<UserRow> {
    return this.#insertUser({
      email: `${toHex(newId())}@remote.invalid`,
      passwordHash: null,
      username: null,
      nickname: input.nickname,
      sponsoredBy: null,
      confirmed: false,
      remoteHandle: input.handle,
      // A like sent across the fediverse is public there: shown among a post's likers here too.
      settings: { showReactionsPublicly: true },
    });
  }

  /** A remote actor's refreshed handle and name (its shadow only); `user.changed` for search and caches. */
  async updateRemoteUser(userId: string, input: { handle: string; nickname: string | null }): Promise<void> {
    await this.#deps.transactions.run(async () => {
      const user = await this.#deps.repository.lockUser(userId);
      if (user?.remoteHandle == null) return;
      if (user.remoteHandle === input.handle && user.nickname === input.nickname) return;
      const row = await this.#deps.repository.updateUser(userId, {
        remoteHandle: input.handle,
        nickname: input.nickname,
        updatedAt: this.#deps.clock.now(),
      });
      if (row !== null) await this.#deps.events.publish('user.changed', { user: row });
    });
  }

  /** The one way an account is made, whoever makes it: the row and `user.created`, in one transaction. */
  async #insertUser(fields: {
    email: string;
    passwordHash: string | null;
    username: string | null;
    nickname: string | null;
    sponsoredBy: string | null;
    confirmed: boolean;
    remoteHandle?: string;
    settings?: Partial<UserSettings>;
  }): Promise<UserRow> {
    const now = this.#deps.clock.now();
    return this.#deps.transactions.run(async () => {
      let user: UserRow;
      try {
        user = await this.#deps.repository.insertUser({
          id: newId(),
          email: fields.email.trim(),
          passwordHash: fields.passwordHash,
          username: fields.username,
          nickname: fields.nickname,
          sponsorCode: newSponsorCode(),
          sponsoredBy: fields.sponsoredBy,
          settings: fields.settings ?? {},
          emailConfirmedAt: fields.confirmed ? now : null,
          remoteHandle: fields.remoteHandle ?? null,
          createdAt: now,
          updatedAt: now,
        });
      } catch (error) {
        throw AccountsService.conflictFor(error) ?? error;
      }
      await this.#deps.events.publish('user.created', { user });
      return user;
    });
  }

  /**
   * `login` is an e-mail or a username. Unknown account, wrong password and a banned account's right
   * password answer the same 401 (no password oracle), and all three count as failures of the
   * lockout (login-throttle.ts), keyed on the account whatever spelling named it.
   */
  async login(login: string, password: string, client: ClientInfo) {
    const trimmed = login.trim();
    const user = trimmed.includes('@')
      ? await this.#deps.repository.findUserByEmail(trimmed)
      : await this.#deps.repository.findUserByUsername(trimmed);
    const known = user !== null && user.anonymizedAt === null;
    const bucket = known ? user.id : `name:${trimmed.toLowerCase()}`;
    await this.#deps.throttle.check(bucket, client.ip);
    const refuse = async () => {
      await this.#deps.throttle.fail(bucket, client.ip);
      return new AppError('invalidCredentials');
    };
    if (!known) {
      await verifyPassword(await decoyPasswordHash(), password);
      throw await refuse();
    }
    if (!(await verifyPassword(user.passwordHash, password))) throw await refuse();
    // A ban whose end has passed is lifted here (as the bans job would); a ban in force answers like
    // a wrong password: only a session opened before the ban learns of it (403 accountBanned).
    if (!(await this.#deps.moderation.liftIfEnded(user))) throw await refuse();
    const { session, accessToken } = await this.#deps.sessions.create(user, client);
    return { user, session, accessToken };
  }

  /** The signed-in user (GET /api/auth/me), with the name and country of their birth city. */
  async me(userId: string): Promise<UserWithBirthCity> {
    const found = await this.#deps.repository.findUserWithBirthCity(userId);
    if (found === null) throw new AppError('notFound');
    return found;
  }
}
