/** The face of accounts: its services, and what other areas may import of it (docs/development.md, How areas talk). */
import type { AccountsService } from './accounts.service.ts';
import type { DeletionService } from './deletion.service.ts';
import type { DomainBlocksService } from './domain-blocks.service.ts';
import type { MailFlowsService } from './mail-flows.service.ts';
import type { ModerationService } from './moderation.service.ts';
import type { PasswordService } from './password.service.ts';
import type { ProfileService } from './profile.service.ts';
import type { ReauthenticationService } from './reauthentication.service.ts';
import type { RelationsService } from './relations.service.ts';
import type { SessionCache } from './session-cache.ts';
import type { SessionsService } from './sessions.service.ts';
import type { SettingsService } from './settings.service.ts';
import type { TwoFactorService } from './two-factor.service.ts';
import type { UserDirectoryService } from './user-directory.service.ts';
import type { UsersService } from './users.service.ts';

export interface AccountsServices {
  accounts: AccountsService;
  sessions: SessionsService;
  /** Two-factor authentication: enrolment, turning off, recovery codes, the operator's reset. */
  twoFactor: TwoFactorService;
  /** Live sessions in memory; every write that revokes one goes through AccountsRepository. */
  sessionCache: SessionCache;
  mailFlows: MailFlowsService;
  profile: ProfileService;
  passwords: PasswordService;
  settings: SettingsService;
  directory: UserDirectoryService;
  users: UsersService;
  /** Blocks and mutes between users, and the viewer's hidden users (read-model.ts `shownTo` in memory). */
  relations: RelationsService;
  /** A user's own blocks of remote domains, part of the same rule as blocks. */
  domainBlocks: DomainBlocksService;
  /** Operators' side: verified badge, bans (and their end), erasure. */
  moderation: ModerationService;
  /** "Confirm it is you" before a change to how the account signs in (a recent sign-in or the password). */
  reauthentication: ReauthenticationService;
  /** The owner's account deletion: request, confirmation, cancellation by signing in, erasure (job account-erasure). */
  deletion: DeletionService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    accounts: AccountsServices;
  }
}

export type { RemoteUserOnDomain } from './domain-blocks.repository.ts';
export { type DomainBlocksService, requireDomain } from './domain-blocks.service.ts';
// What other areas use of accounts, beside its services.
export type { ModerationService } from './moderation.service.ts';
export { adminUsersKeyset, maxBanReasonLength } from './moderation.service.ts';
export {
  NewSessionDocumentSchema,
  PublicUserSchema,
  presentNewSession,
  presentPublicUser,
  presentSession,
  SessionSchema,
} from './presenters.ts';
export type { ReauthenticationProof, ReauthenticationService } from './reauthentication.service.ts';
export type { HiddenMutes, RelationsService } from './relations.service.ts';
export { DomainInput, LoginBody, loginNameOf } from './requests.ts';
export { resolveUser } from './resolve-user.ts';
export { sessionsRevokedChannel } from './session-cache.ts';
export { type ClientInfo, clientInfo, type SessionsService, type SignInOptions } from './sessions.service.ts';
export { settingsOf } from './settings.service.ts';
export type { TwoFactorProof, TwoFactorService } from './two-factor.service.ts';
export { TwoFactorCompletionBody, twoFactorProofOf } from './two-factor-requests.ts';
export { nicknameMaxLength } from './usernames.ts';
export { displayNameOf, publicUsernameOf, type UsersService } from './users.service.ts';
