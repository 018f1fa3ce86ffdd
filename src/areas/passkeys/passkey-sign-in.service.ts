/**
 * Signing in with a passkey alone (docs/api.md, Passkeys): discoverable credentials (the options name
 * no account), user verification required. The assertion is checked against its challenge (single
 * use, five minutes), PUBLIC_URL's origin and relying party id, and the passkey's public key; a
 * signature counter that does not move forward (when either is not 0) refuses it and is logged (a
 * cloned authenticator). The session is opened by accounts' SessionsService, which refuses a passkey
 * that did not verify its user (one factor).
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
  VerifiedAuthenticationResponse,
} from '@simplewebauthn/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { AccountsServices, ClientInfo } from '../accounts/public.ts';
import type { UserRow } from '../accounts/read-model.ts';
import { type Challenges, challengeLifetimeMs, challengeOf } from './challenges.ts';
import { loadWebAuthn } from './load-webauthn.ts';
import type { PasskeysRepository } from './passkeys.repository.ts';
import { userHandleOf } from './passkeys.service.ts';
import type { IssuedOptions } from './presenters.ts';
import type { RelyingParty } from './relying-party.ts';

type Rejection = 'challenge' | 'credential' | 'signature' | 'counter';
const rejected = (reason: Rejection, detail: string) =>
  new AppError('passkeyRejected', { source: { pointer: '/credential' }, detail, meta: { reason } });

export interface PasskeySignIn {
  user: UserRow;
  session: Awaited<ReturnType<AccountsServices['sessions']['create']>>['session'];
  accessToken: string;
}

export interface PasskeySignInServiceDeps {
  transactions: Transactions;
  repository: PasskeysRepository;
  challenges: Challenges;
  accounts: Pick<AccountsServices, 'users' | 'sessions' | 'moderation'>;
  relyingParty: RelyingParty;
  clock: Clock;
  logger: FastifyBaseLogger;
}

export class PasskeySignInService {
  readonly #deps: PasskeySignInServiceDeps;

  constructor(deps: PasskeySignInServiceDeps) {
    this.#deps = deps;
  }

  /** POST /api/auth/passkey/options: a sign-in challenge for navigator.credentials.get() (no account named). */
  async options(): Promise<IssuedOptions<PublicKeyCredentialRequestOptionsJSON>> {
    const issued = await this.#deps.challenges.issue('sign-in', null);
    const { generateAuthenticationOptions } = await loadWebAuthn();
    const publicKey = await generateAuthenticationOptions({
      rpID: this.#deps.relyingParty.id,
      challenge: issued.bytes,
      timeout: challengeLifetimeMs,
      userVerification: 'required',
      allowCredentials: [],
    });
    return { challenge: issued.challenge, expiresAt: issued.expiresAt, publicKey };
  }

  /** POST /api/auth/passkey: the assertion's account, signed in. */
  async signIn(credential: AuthenticationResponseJSON, client: ClientInfo): Promise<PasskeySignIn> {
    const challenge = challengeOf(credential.response.clientDataJSON);
    if (challenge === null || !(await this.#deps.challenges.take(challenge, 'sign-in', null))) {
      throw rejected('challenge', 'no sign-in challenge with this value is still valid: ask for new options');
    }
    const passkey = await this.#deps.repository.findByCredentialId(credential.id);
    if (passkey === null) throw rejected('credential', 'no account has this passkey');
    const user = await this.#deps.accounts.users.find(passkey.userId);
    if (user === null || user.anonymizedAt !== null) throw rejected('credential', 'no account has this passkey');
    // A discoverable credential names its account: it must be the passkey's.
    const handle = credential.response.userHandle;
    if (handle !== undefined && handle !== Buffer.from(userHandleOf(user.id)).toString('base64url')) {
      throw rejected('credential', 'the user handle is not the passkey account’s');
    }
    const { verifyAuthenticationResponse } = await loadWebAuthn();
    let verified: VerifiedAuthenticationResponse;
    try {
      verified = await verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: challenge,
        expectedOrigin: this.#deps.relyingParty.origin,
        expectedRPID: this.#deps.relyingParty.id,
        // User verification is checked below, to answer its own code; the counter too (0 here: the
        // library's own check would hide the reason).
        requireUserVerification: false,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: 0,
        },
      });
    } catch (error) {
      this.#deps.logger.info({ passkeyId: passkey.id, reason: (error as Error).message }, 'passkeys.signInRejected');
      throw rejected('signature', (error as Error).message.slice(0, 200));
    }
    if (!verified.verified) throw rejected('signature', 'the signature did not verify');
    const { newCounter, userVerified } = verified.authenticationInfo;
    // One transaction: a refused sign-in (ban, no user verification) leaves the counter as it was.
    return this.#deps.transactions.run(async () => {
      const moved = newCounter > passkey.counter || (newCounter === 0 && passkey.counter === 0);
      if (!moved || !(await this.#deps.repository.recordUse(passkey.id, newCounter, this.#deps.clock.now()))) {
        this.#deps.logger.warn(
          { passkeyId: passkey.id, userId: user.id, storedCounter: passkey.counter, newCounter },
          'passkeys.counterWentBackwards',
        );
        throw rejected('counter', 'the signature counter did not move forward: this authenticator may be a clone');
      }
      // A ban in force refuses the sign-in (an ended one is lifted, as password login does).
      if (!(await this.#deps.accounts.moderation.liftIfEnded(user))) throw new AppError('accountBanned');
      const { session, accessToken } = await this.#deps.accounts.sessions.create(user, client, 'passkey', {
        userVerified,
      });
      return { user, session, accessToken };
    });
  }
}
