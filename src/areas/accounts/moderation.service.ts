/**
 * User moderation (the operators' side of accounts): verified badge, bans and their end, erasure.
 * Every change is audited in its own transaction, with no e-mail or username in the payload.
 *
 * - A ban ends every session at once (rows deleted, caches told through AccountsRepository), login
 *   answers 401 invalidCredentials as for a wrong password (no password oracle), and `user.banned` lets the areas that show the user's content hide it
 *   in the same transaction. `until` (optional) ends it: the `bans` job, or the user's next login,
 *   lifts it through `unban` (actor 'system'), which publishes `user.unbanned`.
 * - An erasure (anonymize) replaces or deletes everything personal on the account, ends sessions and
 *   mailed links, and publishes `user.anonymized` for the areas that keep copies (media deletes the
 *   user's media, notifications rename the frozen actor). It cannot be undone.
 */
import type { AuditLog } from '../../platform/audit/audit-log.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { returned } from '../../platform/db/returned.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { newId, toHex } from '../../platform/ids/ids.ts';
import type { MailOutbox } from '../../platform/mail-outbox/mail-outbox.ts';
import { type DecisionContext, directAction } from '../../platform/moderation/decision-context.ts';
import { visibleText } from '../../platform/text/visible-text.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { AdminUserFilter, ModerationRepository } from './moderation.repository.ts';
import type { UserRow, UserSettings } from './tables.ts';

/** The keyset of GET /admin/users (defined with its query), for the route that pages it. */
export { adminUsersKeyset } from './moderation.repository.ts';
export type { AdminUserFilter };

/** The longest ban reason, in characters, once cleaned and trimmed. */
export const maxBanReasonLength = 500;

export interface BanInput {
  /** Why, in the operator's words (1 to 500 characters once cleaned and trimmed); shown to operators only. */
  reason: string;
  /** When the ban ends by itself; null: until lifted. Must be in the future. */
  until: Date | null;
}

/** How many ended bans one run of the bans job lifts (the next run takes the rest). */
const bansPerRun = 500;

/** What an erased account keeps of its settings: nothing personal, and out of every public list. */
const erasedSettings: Partial<UserSettings> = {
  discoverable: false,
  showReactionsPublicly: false,
  marketingEmails: false,
  publishLocationByDefault: false,
};

export interface ModerationServiceDeps {
  transactions: Transactions;
  events: EventBus;
  audit: AuditLog;
  accounts: AccountsRepository;
  repository: ModerationRepository;
  clock: Clock;
  mail: MailOutbox;
}

export class ModerationService {
  readonly #deps: ModerationServiceDeps;

  constructor(deps: ModerationServiceDeps) {
    this.#deps = deps;
  }

  list(filter: AdminUserFilter, page: PageRequest): Promise<UserRow[]> {
    return this.#deps.repository.list(filter, page);
  }

  /** Any account, erased ones included; 404 when unknown. */
  async get(userId: string): Promise<UserRow> {
    const user = await this.#deps.accounts.findUserById(userId);
    if (user === null) throw new AppError('notFound', { source: { parameter: 'hex' } });
    return user;
  }

  countLiveSessions(userId: string): Promise<number> {
    return this.#deps.repository.countLiveSessions(userId, this.#deps.clock.now());
  }

  /** Locks the account for a moderation change; unknown and erased accounts are 404. */
  async #lockActive(userId: string): Promise<UserRow> {
    const user = await this.#deps.accounts.lockUser(userId);
    if (user === null || user.anonymizedAt !== null) throw new AppError('notFound', { source: { parameter: 'hex' } });
    return user;
  }

  #record(actor: string, action: string, userId: string, payload: Record<string, unknown> = {}): Promise<void> {
    return this.#deps.audit.record({ actor, action, targetType: 'user', targetId: userId, payload });
  }

  async setVerified(userId: string, verified: boolean, actor: string): Promise<UserRow> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#lockActive(userId);
      if ((user.verifiedAt !== null) === verified) return user;
      const now = this.#deps.clock.now();
      const row = returned(
        await this.#deps.accounts.updateUser(userId, { verifiedAt: verified ? now : null, updatedAt: now }),
        'users.update',
      );
      await this.#deps.events.publish('user.changed', { user: row });
      await this.#record(actor, 'user.verified', userId, { verified });
      return row;
    });
  }

  /**
   * Bans the user, or changes the reason and end of a ban in force (`user.banned` is published when
   * the ban starts, not again). Joins the caller's transaction. The one path of every ban: the admin
   * route, a report's action and the operator's `users:ban`. A ban that starts is a moderation decision
   * the user is told of and may appeal (`user.bannedByModerator`, with `context`: the report and note).
   */
  async ban(userId: string, input: BanInput, actor: string, context: DecisionContext = directAction): Promise<UserRow> {
    const reason = visibleText(input.reason, { multiline: true });
    if (reason === null || [...reason].length > maxBanReasonLength) {
      throw new AppError('validationFailed', {
        source: { pointer: '/reason' },
        detail: `1 to ${maxBanReasonLength} characters once trimmed`,
      });
    }
    return this.#deps.transactions.run(async () => {
      const now = this.#deps.clock.now();
      if (input.until !== null && input.until.getTime() <= now.getTime()) {
        throw new AppError('validationFailed', { source: { pointer: '/until' }, detail: 'must be in the future' });
      }
      const user = await this.#lockActive(userId);
      const starts = user.bannedAt === null;
      const row = returned(
        await this.#deps.accounts.updateUser(userId, {
          bannedAt: user.bannedAt ?? now,
          banReason: reason,
          bannedUntil: input.until,
          updatedAt: now,
        }),
        'users.update',
      );
      await this.#deps.accounts.deleteSessionsOfUser(userId);
      if (starts) {
        await this.#deps.events.publish('user.changed', { user: row });
        // An account being deleted is hidden already (deletion.service.ts).
        if (user.deletionRequestedAt === null) await this.#deps.events.publish('user.banned', { userId });
        await this.#deps.events.publish('user.bannedByModerator', { userId, reason, until: input.until, context });
      }
      await this.#record(actor, 'user.ban', userId, {
        reason,
        until: input.until?.toISOString() ?? null,
        started: starts,
      });
      return row;
    });
  }

  /** Lifts the ban; a user not banned is left as is (`changed` false, nothing published or audited). */
  async unban(userId: string, actor: string): Promise<{ user: UserRow; changed: boolean }> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#lockActive(userId);
      if (user.bannedAt === null) return { user, changed: false };
      const row = returned(
        await this.#deps.accounts.updateUser(userId, {
          bannedAt: null,
          banReason: null,
          bannedUntil: null,
          updatedAt: this.#deps.clock.now(),
        }),
        'users.update',
      );
      await this.#deps.events.publish('user.changed', { user: row });
      // An account being deleted stays hidden until the deletion is cancelled (deletion.service.ts).
      if (user.deletionRequestedAt === null) await this.#deps.events.publish('user.unbanned', { userId });
      await this.#record(actor, 'user.unban', userId, actor === 'system' ? { reason: 'ended' } : {});
      return { user: row, changed: true };
    });
  }

  /** Lifts the user's ban if its end has passed (login calls it); true when the account is not banned after. */
  async liftIfEnded(user: UserRow): Promise<boolean> {
    if (user.bannedAt === null) return true;
    if (user.bannedUntil === null || user.bannedUntil.getTime() > this.#deps.clock.now().getTime()) return false;
    return this.#deps.transactions.run(async () => {
      const locked = await this.#deps.accounts.lockUser(user.id);
      if (locked === null || locked.bannedAt === null) return true; // lifted meanwhile
      // An operator may have banned again meanwhile, with a later end or none.
      if (locked.bannedUntil === null || locked.bannedUntil.getTime() > this.#deps.clock.now().getTime()) return false;
      await this.unban(user.id, 'system');
      return true;
    });
  }

  /** The bans job: lifts every ban whose end has passed, each in its own transaction. */
  async liftEndedBans(): Promise<{ lifted: number }> {
    let lifted = 0;
    for (;;) {
      const ids = await this.#deps.repository.endedBans(this.#deps.clock.now(), bansPerRun);
      for (const id of ids) {
        const user = await this.#deps.accounts.findUserById(id);
        if (user !== null && user.bannedAt !== null && (await this.liftIfEnded(user))) lifted += 1;
      }
      if (ids.length < bansPerRun) return { lifted };
    }
  }

  /**
   * Erases the account for good: e-mail and username replaced by placeholders nobody can reach or
   * guess, nickname, address, profile images, password and personal settings deleted, sessions and
   * mailed links ended; `user.anonymized` lets other areas erase their copies. 409 when already erased.
   */
  async anonymize(userId: string, actor: string): Promise<UserRow> {
    return this.#deps.transactions.run(async () => {
      const user = await this.#deps.accounts.lockUser(userId);
      if (user === null) throw new AppError('notFound', { source: { parameter: 'hex' } });
      if (user.anonymizedAt !== null) throw new AppError('conflict', { detail: 'the account is already anonymized' });
      const now = this.#deps.clock.now();
      // Random, so that nobody can take the placeholder first (ids are public).
      const placeholder = toHex(newId());
      const username = `deleted_${placeholder.slice(0, 22)}`;
      const row = returned(
        await this.#deps.accounts.updateUser(userId, {
          email: `${placeholder}@anonymized.invalid`,
          username,
          nickname: null,
          passwordHash: null,
          address: null,
          avatarMediaId: null,
          coverMediaId: null,
          settings: erasedSettings,
          bannedUntil: null,
          anonymizedAt: now,
          updatedAt: now,
        }),
        'users.update',
      );
      await this.#deps.accounts.deleteSessionsOfUser(userId);
      await this.#deps.repository.deleteTokensOfUser(userId);
      // Mail to the former address, sent or waiting, names the account: it goes too.
      await this.#deps.mail.forgetRecipient(user.email);
      await this.#deps.events.publish('user.changed', { user: row });
      await this.#deps.events.publish('user.anonymized', { userId, formerUsername: user.username, username });
      await this.#record(actor, 'user.anonymize', userId);
      return row;
    });
  }
}
