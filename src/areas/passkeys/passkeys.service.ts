/**
 * The passkeys of an account (docs/api.md, Passkeys): registration (options after "confirm it is
 * you", then the authenticator's attestation), list, rename, delete; the owner is mailed when one is
 * added or removed, in the transaction of the change. WebAuthn checks: @simplewebauthn/server.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import { uniqueViolation } from '../../platform/db/errors.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { MailOutbox } from '../../platform/mail-outbox/mail-outbox.ts';
import type { AccountsServices, ClientInfo, ReauthenticationProof } from '../accounts/public.ts';
import type { UserRow } from '../accounts/read-model.ts';
import { type Challenges, challengeLifetimeMs, challengeOf } from './challenges.ts';
import { loadWebAuthn } from './load-webauthn.ts';
import { passkeyChangeMail } from './mails/passkey-change-mail.ts';
import type { PasskeysRepository } from './passkeys.repository.ts';
import type { IssuedOptions } from './presenters.ts';
import type { RelyingParty } from './relying-party.ts';
import type { PasskeyRow } from './tables.ts';

/**
 * The signature algorithms accepted, most preferred first: EdDSA, ES256, RS256 (COSE ids). Not the
 * post-quantum ML-DSA the library offers when the runtime has it: Node's support of it is still
 * experimental, and its signatures are ten times longer.
 */
export const supportedAlgorithms = [-8, -7, -257];

/** The most passkeys one account may hold (docs/api.md). */
export const maxPasskeysPerUser = 20;

/** The user handle authenticators keep for the account: its UUID's 16 bytes. */
export const userHandleOf = (userId: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(Buffer.from(userId.replaceAll('-', ''), 'hex'));

export interface PasskeysServiceDeps {
  transactions: Transactions;
  repository: PasskeysRepository;
  challenges: Challenges;
  accounts: Pick<AccountsServices, 'users' | 'reauthentication'>;
  relyingParty: RelyingParty;
  mail: MailOutbox;
  clock: Clock;
  logger: FastifyBaseLogger;
}

export class PasskeysService {
  readonly #deps: PasskeysServiceDeps;

  constructor(deps: PasskeysServiceDeps) {
    this.#deps = deps;
  }

  /**
   * POST /api/users/me/passkeys/options: after "confirm it is you" (the password, or a session of the
   * last 10 minutes), the options for navigator.credentials.create(): a discoverable credential, user
   * verification required, no attestation, the account's passkeys excluded.
   */
  async registrationOptions(
    viewer: { userId: string; sessionId: string },
    proof: ReauthenticationProof,
    client: ClientInfo,
  ): Promise<IssuedOptions<PublicKeyCredentialCreationOptionsJSON>> {
    await this.#deps.accounts.reauthentication.confirm(viewer, proof, client);
    const user = await this.#user(viewer.userId);
    await this.#refuseOverLimit(user.id);
    const mine = await this.#deps.repository.credentialsOf(user.id);
    const issued = await this.#deps.challenges.issue('registration', user.id);
    const { generateRegistrationOptions } = await loadWebAuthn();
    const publicKey = await generateRegistrationOptions({
      rpName: this.#deps.relyingParty.name,
      rpID: this.#deps.relyingParty.id,
      userID: userHandleOf(user.id),
      userName: user.username ?? user.email,
      userDisplayName: user.nickname ?? user.username ?? user.email,
      challenge: issued.bytes,
      timeout: challengeLifetimeMs,
      attestationType: 'none',
      excludeCredentials: mine.map((row) => ({ id: row.credentialId, transports: row.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: supportedAlgorithms,
    });
    return { challenge: issued.challenge, expiresAt: issued.expiresAt, publicKey };
  }

  /** POST /api/users/me/passkeys: checks the attestation against its challenge, keeps the passkey, mails the owner. */
  async register(
    userId: string,
    input: { name?: string; credential: RegistrationResponseJSON },
    locale: Locale,
  ): Promise<PasskeyRow> {
    const refuse = (reason: 'challenge' | 'attestation', detail: string) =>
      new AppError('passkeyRegistrationRejected', { source: { pointer: '/credential' }, detail, meta: { reason } });
    const challenge = challengeOf(input.credential.response.clientDataJSON);
    if (challenge === null || !(await this.#deps.challenges.take(challenge, 'registration', userId))) {
      throw refuse('challenge', 'no registration challenge of yours that is still valid: ask for new options');
    }
    const { verifyRegistrationResponse } = await loadWebAuthn();
    let verified: VerifiedRegistrationResponse;
    try {
      verified = await verifyRegistrationResponse({
        response: input.credential,
        expectedChallenge: challenge,
        expectedOrigin: this.#deps.relyingParty.origin,
        expectedRPID: this.#deps.relyingParty.id,
        requireUserVerification: true,
        supportedAlgorithmIDs: supportedAlgorithms,
      });
    } catch (error) {
      this.#deps.logger.info({ userId, reason: (error as Error).message }, 'passkeys.registrationRejected');
      throw refuse('attestation', (error as Error).message.slice(0, 200));
    }
    if (!verified.verified) throw refuse('attestation', 'the attestation did not verify');
    const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
    const now = this.#deps.clock.now();
    return this.#deps.transactions.run(async () => {
      const user = await this.#deps.accounts.users.lock(userId);
      if (user === null) throw new AppError('notFound');
      await this.#refuseOverLimit(userId);
      if ((await this.#deps.repository.findByCredentialId(credential.id)) !== null) {
        throw new AppError('passkeyAlreadyRegistered', { source: { pointer: '/credential/id' } });
      }
      let row: PasskeyRow;
      try {
        row = await this.#deps.repository.insert({
          id: newId(),
          userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: (input.credential.response.transports ?? []).slice(0, 8),
          name: input.name ?? defaultName(now),
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
          createdAt: now,
          lastUsedAt: null,
        });
      } catch (error) {
        // The same credential registered at the same moment by another request.
        if (uniqueViolation(error) === 'passkeys_credential_id') throw new AppError('passkeyAlreadyRegistered');
        throw error;
      }
      await this.#mailOwner(user, 'added', row, locale, now);
      return row;
    });
  }

  list(userId: string, page: PageRequest): Promise<PasskeyRow[]> {
    return this.#deps.repository.list(userId, page);
  }

  async rename(userId: string, id: string, name: string): Promise<PasskeyRow> {
    const row = await this.#deps.repository.rename(userId, id, name);
    if (row === null) throw new AppError('notFound');
    return row;
  }

  /** Deletes one of the owner's passkeys (it signs in no more) and mails them. */
  async delete(userId: string, id: string, locale: Locale): Promise<void> {
    await this.#deps.transactions.run(async () => {
      const user = await this.#deps.accounts.users.lock(userId);
      if (user === null) throw new AppError('notFound');
      const row = await this.#deps.repository.delete(userId, id);
      if (row === null) throw new AppError('notFound');
      await this.#mailOwner(user, 'removed', row, locale, this.#deps.clock.now());
    });
  }

  countOf(userId: string): Promise<number> {
    return this.#deps.repository.countForUser(userId);
  }

  exportBatch(userId: string, after: string | null, limit: number): Promise<PasskeyRow[]> {
    return this.#deps.repository.exportBatch(userId, after, limit);
  }

  async #user(userId: string): Promise<UserRow> {
    const user = await this.#deps.accounts.users.find(userId);
    if (user === null || user.anonymizedAt !== null) throw new AppError('notFound');
    return user;
  }

  async #refuseOverLimit(userId: string): Promise<void> {
    if ((await this.#deps.repository.countForUser(userId)) >= maxPasskeysPerUser) {
      throw new AppError('passkeyLimitReached', {
        meta: { limit: maxPasskeysPerUser },
        detail: `an account holds at most ${maxPasskeysPerUser} passkeys`,
      });
    }
  }

  async #mailOwner(user: UserRow, change: 'added' | 'removed', row: PasskeyRow, locale: Locale, at: Date) {
    const mail = passkeyChangeMail({
      change,
      locale,
      to: user.email,
      name: user.nickname ?? user.username ?? null,
      passkeyName: row.name,
      at,
    });
    await this.#deps.mail.file(mail, change === 'added' ? 'passkey-added' : 'passkey-removed');
  }
}

/** A passkey registered without a name: "Passkey 2026-11-28" (renamed at will). */
const defaultName = (at: Date) => `Passkey ${at.toISOString().slice(0, 10)}`;
