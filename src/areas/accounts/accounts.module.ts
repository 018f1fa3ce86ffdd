/**
 * Accounts: registration, sign-in, sessions, the mailed flows, profiles, settings, the user directory,
 * and `users` (the owner API of the users table for every other area). Operator command: users:create.
 */
import { defineArea } from '../../platform/modules/area-module.ts';
import { accountRoutes } from './account.routes.ts';
import { AccountsRepository } from './accounts.repository.ts';
import { AccountsService } from './accounts.service.ts';
import { authRoutes } from './auth.routes.ts';
import { usersCreateCommand } from './users-create.command.ts';
import './events.ts';
import { mailFlowsRoutes } from './mail-flows.routes.ts';
import { MailFlowsService } from './mail-flows.service.ts';
import { MailTokens } from './mail-tokens.ts';
import { PasswordService } from './password.service.ts';
import { ProfileService } from './profile.service.ts';
import { SessionCache } from './session-cache.ts';
import { SessionsService } from './sessions.service.ts';
import { SettingsService } from './settings.service.ts';
import { UserDirectoryRepository } from './user-directory.repository.ts';
import { UserDirectoryService } from './user-directory.service.ts';
import { UsersService } from './users.service.ts';

export interface AccountsServices {
  accounts: AccountsService;
  sessions: SessionsService;
  /** Live sessions in memory; every write that revokes one goes through AccountsRepository. */
  sessionCache: SessionCache;
  mailFlows: MailFlowsService;
  profile: ProfileService;
  passwords: PasswordService;
  settings: SettingsService;
  directory: UserDirectoryService;
  users: UsersService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    accounts: AccountsServices;
  }
}

export const accountsArea = defineArea({
  name: 'accounts',
  needs: ['geography'],
  create({ transactions, events, clock, config, mailer, logger, broadcast }, { geography }) {
    const sessionCache = new SessionCache({ clock, ttlSeconds: config.sessionCacheSeconds, broadcast, transactions });
    const repository = new AccountsRepository(transactions, sessionCache);
    const sessions = new SessionsService(repository, sessionCache, clock, config.sessionTtlDays);
    const mailFlows = new MailFlowsService(
      transactions,
      repository,
      new MailTokens(clock),
      mailer,
      clock,
      config.publicUrl,
      logger,
    );
    events.subscribe('user.registered', 'afterCommit', 'accounts.confirmationMail', ({ user, locale }) =>
      mailFlows.sendConfirmation(user, locale),
    );
    return {
      accounts: new AccountsService(repository, sessions, clock, transactions, events),
      sessions,
      sessionCache,
      mailFlows,
      profile: new ProfileService(repository, clock, transactions, events),
      passwords: new PasswordService(repository, clock),
      settings: new SettingsService(repository, clock, transactions, events, geography.geography),
      directory: new UserDirectoryService(new UserDirectoryRepository(transactions), repository),
      users: new UsersService(repository, clock),
    };
  },
  routes(app, services) {
    authRoutes(app, services);
    mailFlowsRoutes(app, services);
    accountRoutes(app, services);
  },
  // Account mails are handed over in the background; a graceful stop waits for them.
  stop: ({ mailFlows }) => mailFlows.drain(),
  cliCommands: [usersCreateCommand],
});
