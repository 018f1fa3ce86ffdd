/** What accounts tell other areas. */
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { DecisionContext } from '../../platform/moderation/decision-context.ts';
import type { UserRow } from './tables.ts';

declare module '../../platform/events/domain-events.ts' {
  interface DomainEvents {
    /**
     * An account was created, whoever created it: a registration, an identity provider's first
     * sign-in, the operator's `users:create`, the demo world (accounts' one insert path). Published in
     * the creating transaction, before `user.registered`; what every new account needs (the search
     * index) follows this one.
     */
    'user.created': { user: UserRow };
    /**
     * A person registered (not an operator-created account); `locale` is the request's. `couponCode` is
     * the code given at registration, redeemed by the coupons area in this transaction (a refused code
     * fails the registration).
     */
    'user.registered': { user: UserRow; locale: Locale; couponCode?: string };
    /**
     * The account's e-mail address became confirmed (a confirmation link, or a password reset, which
     * proves it too), published once per account, in that transaction, under the user's lock.
     * `sponsoredBy` is the sponsor whose code the account registered with (gamification rewards them).
     */
    /**
     * The account's address is proven: by a mailed link (`mail`: confirmation or password reset) or by
     * the identity provider that opened the account (`provider`).
     */
    'user.emailConfirmed': { userId: string; sponsoredBy: string | null; proof: 'mail' | 'provider' };
    /**
     * What others see of a user changed: username, nickname or settings (discoverable). The ban and
     * erasure writes publish it too when they land. `user` is the row after the change.
     */
    'user.changed': { user: UserRow };
    /**
     * An operator banned the user (PUT /admin/users/{hex}/ban, or a report's action), or lifted the ban
     * (unban, or its `until` passed). Published in the transaction of the change, after `user.changed`;
     * areas that show the user's content (media, comments) hide it or bring it back in that transaction.
     * Each is published on the transition only: a ban changing the reason or end of a ban in force, or
     * an unban of a user not banned, publishes nothing (accounts.moderation, moderation.service.ts).
     */
    // Both also follow account deletion (deletion.service.ts): a confirmed deletion hides the user's
    // content as a ban does, and `user.banned` / `user.unbanned` mean "hidden" / "shown again". They
    // are published only when the first of ban and pending deletion starts, and when the last ends.
    'user.banned': { userId: string };
    'user.unbanned': { userId: string };
    /**
     * An operator's ban started (the admin route, `users:ban`, a report's action; not an account
     * deletion), after `user.banned`, in its transaction: `reason` is the operator's, `until` its end
     * (null: until lifted). The appeals area records the decision and tells the user.
     */
    'user.bannedByModerator': { userId: string; reason: string; until: Date | null; context: DecisionContext };
    /**
     * The account was erased for good (POST /admin/users/{hex}/anonymize), in the transaction of the
     * erasure: areas erase or replace what they keep of it (frozen names in notifications, mentions).
     * `formerUsername` is never stored anywhere; `username` is the anonymous name that replaced it.
     */
    'user.anonymized': { userId: string; formerUsername: string | null; username: string };
    /**
     * The account is being erased for good (its deletion's grace period ended: deletion.service.ts),
     * in the transaction that deletes it, under the user's lock, before accounts deletes the user's own
     * rows (users, sessions, tokens). Every area that keeps rows of the user deletes them here and
     * repairs counters on other people's rows in the same transaction; files wait for the commit.
     * Subscribers must tolerate a user whose rows are already gone (the job delivers at least once).
     */
    'user.erasing': { userId: string };
    /**
     * A user blocked another (PUT /api/users/me/blocks/{userId}), in its transaction, with both users
     * locked (ascending id): follows removes the follows both ways, notifications the follow
     * notifications between them. Published only when the block is new.
     */
    'user.blocked': { blockerId: string; blockedId: string };
    /** The block was lifted (DELETE /api/users/me/blocks/{userId}); nothing comes back by itself. */
    'user.unblocked': { blockerId: string; blockedId: string };
    /** A user muted another, or changed the mute's terms (one way, silent: the muted user is never told). */
    'user.muted': { muterId: string; mutedId: string; notifications: boolean; expiresAt: Date | null };
    /** The mute was lifted (an expired one ends by itself and publishes nothing). */
    'user.unmuted': { muterId: string; mutedId: string };
  }
}
