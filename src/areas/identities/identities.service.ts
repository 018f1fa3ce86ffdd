/**
 * Sign-in with an identity provider, and the identities linked to an account (docs/api.md, "Sign-in
 * with an identity provider"). The provider is asked first, outside any transaction (a network call
 * must not hold a connection); then one transaction reads the links and writes.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  type IdentityProvider,
  IdentityProviderUnavailable,
  IdentityTokenRejected,
  isProviderName,
  type ProviderCredentials,
  type ProviderName,
  type VerifiedIdentity,
} from '../../adapters/identity/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { uniqueViolation } from '../../platform/db/errors.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { AccountsServices, ClientInfo, SessionsService } from '../accounts/public.ts';
import type { UserRow } from '../accounts/read-model.ts';
import type { IdentitiesRepository } from './identities.repository.ts';
import type { IdentityRow } from './tables.ts';

/** Which credential each provider's SDK gives the client. */
const credentialOf: Record<ProviderName, 'idToken' | 'accessToken'> = {
  google: 'idToken',
  apple: 'idToken',
  facebook: 'accessToken',
};

type SessionRow = Awaited<ReturnType<SessionsService['create']>>['session'];

/** Whether the provider vouches for this address (e-mail addresses compare without case, as accounts do). */
function vouchesFor(identity: VerifiedIdentity, address: string): boolean {
  return identity.emailVerified && identity.email !== null && identity.email.toLowerCase() === address.toLowerCase();
}

export interface ProviderSignIn {
  /** A first sign-in: the account was created (201). */
  created: boolean;
  user: UserRow;
  session: SessionRow;
  accessToken: string;
}

export interface IdentitiesServiceDeps {
  transactions: Transactions;
  repository: IdentitiesRepository;
  providers: ReadonlyMap<ProviderName, IdentityProvider>;
  accounts: Pick<AccountsServices, 'accounts' | 'sessions' | 'users' | 'moderation'>;
  clock: Clock;
  logger: FastifyBaseLogger;
}

export class IdentitiesService {
  readonly #deps: IdentitiesServiceDeps;

  constructor(deps: IdentitiesServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Signs in with a provider's credential: into the account the identity is linked to, or into a new
   * account on a first sign-in. An identity whose e-mail already names an account never enters it:
   * 409 identityEmailInUse (the owner signs in and links). Two first sign-ins of one person at once
   * give one account: the loser of the race retries once and finds the identity linked.
   */
  async signIn(
    provider: string,
    credentials: ProviderCredentials,
    client: ClientInfo,
    locale: Locale,
  ): Promise<ProviderSignIn> {
    const identity = await this.#verify(provider, credentials);
    try {
      return await this.#signIn(identity, client, locale);
    } catch (error) {
      if (uniqueViolation(error) === null && !(error instanceof AppError && error.code === 'emailTaken')) throw error;
      return this.#signIn(identity, client, locale);
    }
  }

  /** A savepoint inside a caller's transaction, so that the retry of signIn runs in it. */
  #signIn(identity: VerifiedIdentity, client: ClientInfo, locale: Locale): Promise<ProviderSignIn> {
    return this.#deps.transactions.attempt(async () => {
      const now = this.#deps.clock.now();
      const linked = await this.#deps.repository.findBySubject(identity.provider, identity.subject);
      if (linked !== null) {
        const user = await this.#deps.accounts.users.find(linked.userId);
        if (user === null || user.anonymizedAt !== null) throw new Error('identity of an erased account');
        // A ban in force refuses the sign-in (an ended one is lifted, as password login does).
        if (!(await this.#deps.accounts.moderation.liftIfEnded(user))) throw new AppError('accountBanned');
        // Apple sends the address on some sign-ins only: keep the one known.
        await this.#deps.repository.recordSignIn(linked.id, identity.email ?? linked.email, now);
        const { session, accessToken } = await this.#deps.accounts.sessions.create(user, client, identity.provider);
        return { created: false, user, session, accessToken };
      }
      if (identity.email === null)
        throw new AppError('identityEmailMissing', { meta: { provider: identity.provider } });
      if ((await this.#deps.accounts.users.findByEmail(identity.email)) !== null) {
        throw new AppError('identityEmailInUse', { meta: { provider: identity.provider } });
      }
      const { user, session, accessToken } = await this.#deps.accounts.accounts.registerWithProvider(
        { email: identity.email, emailVerified: identity.emailVerified },
        client,
        locale,
        identity.provider,
      );
      await this.#deps.repository.insert({
        ...this.#row(user.id, identity, now, identity.emailVerified),
        lastSignInAt: now,
      });
      return { created: true, user, session, accessToken };
    });
  }

  /** Links a provider's identity to the caller; `created` is false when it was linked to them already. */
  async link(
    userId: string,
    provider: string,
    credentials: ProviderCredentials,
  ): Promise<{ identity: IdentityRow; created: boolean }> {
    const identity = await this.#verify(provider, credentials);
    return this.#deps.transactions.run(async () => {
      const user = await this.#deps.accounts.users.lock(userId);
      if (user === null) throw new AppError('notFound');
      const linked = await this.#deps.repository.findBySubject(identity.provider, identity.subject);
      if (linked !== null) {
        if (linked.userId !== userId) throw new AppError('identityLinkedElsewhere');
        return { identity: linked, created: false };
      }
      const mine = await this.#deps.repository.listForUser(userId);
      if (mine.some((row) => row.provider === identity.provider)) throw new AppError('providerAlreadyLinked');
      try {
        return {
          identity: await this.#deps.repository.insert(
            this.#row(userId, identity, this.#deps.clock.now(), vouchesFor(identity, user.email)),
          ),
          created: true,
        };
      } catch (error) {
        // Another account linked the same identity at the same moment.
        if (uniqueViolation(error) === 'user_identities_provider_subject')
          throw new AppError('identityLinkedElsewhere');
        throw error;
      }
    });
  }

  /** The caller's identities, and whether the account has a password (what unlinking checks). */
  async listWithPassword(userId: string): Promise<{ rows: IdentityRow[]; hasPassword: boolean }> {
    const user = await this.#deps.accounts.users.find(userId);
    return { rows: await this.#deps.repository.listForUser(userId), hasPassword: user?.passwordHash != null };
  }

  /**
   * Unlinks the caller's identity of a provider. Refused (409 lastSignInMethod) when the account would
   * be left without a way to sign in: no password and no other identity of a provider configured here.
   */
  async unlink(userId: string, provider: string): Promise<void> {
    if (!isProviderName(provider)) throw new AppError('notFound', { source: { parameter: 'provider' } });
    await this.#deps.transactions.run(async () => {
      const user = await this.#deps.accounts.users.lock(userId);
      if (user === null) throw new AppError('notFound');
      const mine = await this.#deps.repository.listForUser(userId);
      if (!mine.some((row) => row.provider === provider)) throw new AppError('notFound');
      const otherWays = mine.filter((row) => row.provider !== provider && this.#deps.providers.has(row.provider));
      if (user.passwordHash === null && otherWays.length === 0) throw new AppError('lastSignInMethod');
      await this.#deps.repository.delete(userId, provider);
    });
  }

  /**
   * The account's address was just proven by a mailed link: the identities linked while it was not
   * proven go, unless their provider vouched for that very address. Whoever opened or held the account
   * before the owner of the mailbox came (with a provider claiming the address unverified, or with a
   * password and then a link) keeps no way back in (the pre-hijack rule, docs/api.md).
   */
  dropUnprovenLinks(userId: string): Promise<number> {
    return this.#deps.repository.deleteNotProvingAccountEmail(userId);
  }

  /** Every identity of a user goes with the user (erasure, anonymization), in that transaction. */
  eraseUser(userId: string): Promise<number> {
    return this.#deps.repository.deleteAllOfUser(userId);
  }

  exportBatch(userId: string, after: string | null, limit: number): Promise<IdentityRow[]> {
    return this.#deps.repository.exportBatch(userId, after, limit);
  }

  #row(userId: string, identity: VerifiedIdentity, now: Date, provesAccountEmail: boolean): IdentityRow {
    return {
      id: newId(),
      userId,
      provider: identity.provider,
      subject: identity.subject,
      email: identity.email,
      linkedAt: now,
      lastSignInAt: null,
      provesAccountEmail,
    };
  }

  /** Asks the provider who the credential names; the failures become the documented codes. */
  async #verify(provider: string, credentials: ProviderCredentials): Promise<VerifiedIdentity> {
    if (!isProviderName(provider)) throw new AppError('notFound', { source: { parameter: 'provider' } });
    const client = this.#deps.providers.get(provider);
    if (client === undefined) throw new AppError('providerNotConfigured', { source: { parameter: 'provider' } });
    const field = credentialOf[provider];
    if (credentials[field] === undefined) {
      throw new AppError('validationFailed', {
        source: { pointer: `/${field}` },
        detail: `${provider} signs in with ${field}`,
      });
    }
    try {
      return await client.verify(credentials);
    } catch (error) {
      if (error instanceof IdentityTokenRejected) {
        this.#deps.logger.info({ provider, reason: error.reason }, 'identities.tokenRejected');
        throw new AppError('invalidProviderToken', { source: { pointer: `/${field}` } });
      }
      if (error instanceof IdentityProviderUnavailable) {
        this.#deps.logger.warn({ provider, err: error }, 'identities.providerUnavailable');
        throw new AppError('providerUnavailable', { meta: { provider } });
      }
      throw error;
    }
  }
}
