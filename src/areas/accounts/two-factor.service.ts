/**
 * Two-factor authentication (docs/api.md, Two-factor authentication): enrolment (a TOTP secret,
 * answered once with its otpauth:// URI, kept encrypted), confirmation by a first code (10 recovery
 * codes, answered once, kept hashed), turning it off, new recovery codes, an operator's reset, and
 * the check of a second factor that sign-in tickets are completed with (sessions.service.ts).
 * A TOTP code is taken one step either side of now and never twice (the last accepted step is kept);
 * wrong codes are limited (two-factor-throttle.ts).
 */
import type { AuditLog } from '../../platform/audit/audit-log.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { Locale } from '../../platform/i18n/i18n.ts';
import { newId } from '../../platform/ids/ids.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { ClientInfo } from './client-info.ts';
import { SignInNotices } from './sign-in-notices.ts';
import type { SecondFactor, TwoFactorRow, UserRow } from './tables.ts';
import {
  matchingStep,
  newRecoveryCode,
  newTotpSecret,
  normalizedRecoveryCode,
  recoveryCodeCount,
  totpUri,
} from './totp.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';
import type { TwoFactorKeys } from './two-factor-keys.ts';
import type { TwoFactorThrottle } from './two-factor-throttle.ts';

/** A second factor as a request gives it: a TOTP code, or a recovery code. */
export type TwoFactorProof = { code: string } | { recoveryCode: string };

export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: Date | null;
  /** Recovery codes not used yet (0 while off). */
  recoveryCodesLeft: number;
}

export interface TwoFactorServiceDeps {
  transactions: Transactions;
  accounts: AccountsRepository;
  repository: TwoFactorRepository;
  keys: TwoFactorKeys;
  throttle: TwoFactorThrottle;
  notices: SignInNotices;
  audit: AuditLog;
  clock: Clock;
}

export class TwoFactorService {
  readonly #deps: TwoFactorServiceDeps;

  constructor(deps: TwoFactorServiceDeps) {
    this.#deps = deps;
  }

  isEnabled(userId: string): Promise<boolean> {
    return this.#deps.repository.isEnabled(userId);
  }

  async status(userId: string): Promise<TwoFactorStatus> {
    const row = await this.#deps.repository.find(userId);
    if (row === null || row.enabledAt === null) return { enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
    return {
      enabled: true,
      enabledAt: row.enabledAt,
      recoveryCodesLeft: await this.#deps.repository.unusedRecoveryCodes(userId),
    };
  }

  /**
   * Starts an enrolment: a new secret (replacing one that waited for its first code), answered once
   * in base32 and as an otpauth:// URI naming the account's e-mail. 409 while two-factor is on.
   */
  async enrol(userId: string): Promise<{ secret: string; uri: string }> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#lockUser(userId);
      const row = await this.#deps.repository.find(userId);
      if (row?.enabledAt != null) throw new AppError('twoFactorAlreadyEnabled');
      const secret = newTotpSecret();
      await this.#deps.repository.upsertPending(userId, this.#deps.keys.encrypt(secret), this.#deps.clock.now());
      return { secret, uri: totpUri(secret, user.email) };
    });
  }

  /** Turns two-factor on with a first code of the enrolled secret; answers the recovery codes, once. */
  async confirm(userId: string, code: string, locale: Locale): Promise<string[]> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#lockUser(userId);
      const row = await this.#deps.repository.find(userId);
      if (row === null) throw new AppError('twoFactorNotPending');
      if (row.enabledAt !== null) throw new AppError('twoFactorAlreadyEnabled');
      await this.#checkCode(row, code, null);
      await this.#deps.repository.enable(userId, this.#deps.clock.now());
      const codes = await this.#newRecoveryCodes(userId);
      await this.#deps.notices.send(user, 'twoFactorEnabled', locale);
      return codes;
    });
  }

  /**
   * Turns two-factor off, given a current code or a recovery code: the secret and the codes go. The
   * owner is told once (two-factor off), not also of the recovery code it took.
   */
  async disable(userId: string, proof: TwoFactorProof, locale: Locale): Promise<void> {
    await this.#deps.transactions.run(async () => {
      const user = await this.#lockUser(userId);
      const row = await this.#enabledRow(userId);
      await this.#checkProof(user, row, proof, null, null);
      await this.#deps.repository.remove(userId);
      await this.#deps.notices.send(user, 'twoFactorDisabled', locale);
    });
  }

  /** A new set of recovery codes, given a current code or a recovery code; the old ones are void. */
  async regenerateRecoveryCodes(userId: string, proof: TwoFactorProof, client: ClientInfo): Promise<string[]> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#lockUser(userId);
      const row = await this.#enabledRow(userId);
      await this.#checkProof(user, row, proof, null, null);
      const codes = await this.#newRecoveryCodes(userId);
      // A recovery code it took is told of once the new set exists, so the count the mail gives is true.
      if ('recoveryCode' in proof) {
        await this.#deps.notices.send(user, 'recoveryCodeUsed', client.locale, {
          ...SignInNotices.deviceValues(client),
          left: codes.length,
        });
      }
      return codes;
    });
  }

  /**
   * The second factor of a sign-in ticket (sessions.service.ts, in its transaction): which one passed.
   * 401 twoFactorTicketInvalid when two-factor went off since the ticket was issued (sign in again).
   */
  async verifySignIn(
    user: UserRow,
    proof: TwoFactorProof,
    ticketId: string,
    client: ClientInfo,
  ): Promise<SecondFactor> {
    const row = await this.#deps.repository.find(user.id);
    if (row === null || row.enabledAt === null) {
      throw new AppError('twoFactorTicketInvalid', {
        source: { pointer: '/ticket' },
        detail: 'two-factor authentication was turned off meanwhile: sign in again',
      });
    }
    return this.#checkProof(user, row, proof, ticketId, client);
  }

  /**
   * An operator turns two-factor off for an owner who lost their device and codes (`npm run cli --
   * users:reset-two-factor`): audited, and the owner is told. Whether it was on (or enrolling).
   */
  async reset(userId: string, actor: string): Promise<boolean> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#lockUser(userId);
      const removed = await this.#deps.repository.remove(userId);
      if (!removed) return false;
      await this.#deps.audit.record({
        actor,
        action: 'user.resetTwoFactor',
        targetType: 'user',
        targetId: userId,
        payload: {},
      });
      await this.#deps.notices.send(user, 'twoFactorReset', undefined);
      return true;
    });
  }

  async #lockUser(userId: string): Promise<UserRow> {
    const user = await this.#deps.accounts.lockUser(userId);
    if (user === null || user.anonymizedAt !== null) throw new AppError('notFound');
    return user;
  }

  async #enabledRow(userId: string): Promise<TwoFactorRow> {
    const row = await this.#deps.repository.find(userId);
    if (row === null || row.enabledAt === null) throw new AppError('twoFactorNotEnabled');
    return row;
  }

  async #newRecoveryCodes(userId: string): Promise<string[]> {
    const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
    const hashes = codes.map((code) => this.#deps.keys.hashRecoveryCode(normalizedRecoveryCode(code)));
    await this.#deps.repository.replaceRecoveryCodes(userId, hashes, this.#deps.clock.now(), newId);
    return codes;
  }

  /** Checks a code or a recovery code (spending it); a recovery code's use is mailed when `client` is given. */
  async #checkProof(
    user: UserRow,
    row: TwoFactorRow,
    proof: TwoFactorProof,
    ticketId: string | null,
    client: ClientInfo | null,
  ): Promise<SecondFactor> {
    if ('code' in proof) {
      await this.#checkCode(row, proof.code, ticketId);
      return 'totp';
    }
    await this.#deps.throttle.check(user.id, ticketId);
    const hash = this.#deps.keys.hashRecoveryCode(normalizedRecoveryCode(proof.recoveryCode));
    if (!(await this.#deps.repository.useRecoveryCode(user.id, hash, this.#deps.clock.now()))) {
      await this.#deps.throttle.fail(user.id, ticketId);
      throw new AppError('twoFactorCodeInvalid', {
        source: { pointer: '/recoveryCode' },
        detail: 'not an unused recovery code of this account',
      });
    }
    if (client !== null) {
      const left = await this.#deps.repository.unusedRecoveryCodes(user.id);
      await this.#deps.notices.send(user, 'recoveryCodeUsed', client.locale, {
        ...SignInNotices.deviceValues(client),
        left,
      });
    }
    return 'recovery-code';
  }

  /** A TOTP code of the row's secret, within a step of now and of a step after the last one accepted. */
  async #checkCode(row: TwoFactorRow, code: string, ticketId: string | null): Promise<void> {
    await this.#deps.throttle.check(row.userId, ticketId);
    const step = matchingStep(this.#deps.keys.decrypt(row.secretCiphertext), code, this.#deps.clock.now());
    if (step !== null && (await this.#deps.repository.useStep(row.userId, step))) return;
    await this.#deps.throttle.fail(row.userId, ticketId);
    throw new AppError('twoFactorCodeInvalid', {
      source: { pointer: '/code' },
      detail: step === null ? 'not the current code' : 'this code was used already: wait for the next one',
    });
  }
}
