/**
 * Accounts: registration, sign-in, sessions, the mailed flows, profiles, settings, the user directory,
 * `users` (the owner API of the users table for every other area), and `moderation` (verified badge,
 * bans, erasure: the admin routes live in user-admin), and `deletion` (the owner's account deletion).
 * Jobs: bans, account-erasure. Operator command: users:create.
 */
import { byId, keysetBatches, singleRow } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { everyMinutes } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { lazyServerSecret } from '../../platform/secrets/server-secret.ts';
import { accountRoutes } from './account.routes.ts';
import { AccountsRepository } from './accounts.repository.ts';
import { AccountsService } from './accounts.service.ts';
import { AccountsStatsRepository } from './accounts-stats.repository.ts';
import { authRoutes } from './auth.routes.ts';
import { DeletionRepository } from './deletion.repository.ts';
import { deletionRoutes } from './deletion.routes.ts';
import { DeletionService } from './deletion.service.ts';
import { usersCreateCommand } from './users-create.command.ts';
import './events.ts';
import { DomainBlocksRepository } from './domain-blocks.repository.ts';
import { domainBlocksRoutes } from './domain-blocks.routes.ts';
import { DomainBlocksService } from './domain-blocks.service.ts';
import { LoginThrottle } from './login-throttle.ts';
import { mailFlowsRoutes } from './mail-flows.routes.ts';
import { MailFlowsService } from './mail-flows.service.ts';
import { MailTokens } from './mail-tokens.ts';
import { ModerationRepository } from './moderation.repository.ts';
import { ModerationService } from './moderation.service.ts';
import { PasswordService } from './password.service.ts';
import { ProfileService } from './profile.service.ts';
import { ReauthenticationService } from './reauthentication.service.ts';
import { RelationsRepository } from './relations.repository.ts';
import { relationsRoutes } from './relations.routes.ts';
import { RelationsService } from './relations.service.ts';
import { SessionCache } from './session-cache.ts';
import { SessionsService } from './sessions.service.ts';
import { SettingsService } from './settings.service.ts';
import { SignInNotices } from './sign-in-notices.ts';
import { TwoFactorRepository } from './two-factor.repository.ts';
import { twoFactorRoutes } from './two-factor.routes.ts';
import { TwoFactorService } from './two-factor.service.ts';
import { TwoFactorKeys } from './two-factor-keys.ts';
import { TwoFactorThrottle } from './two-factor-throttle.ts';
import { UserDirectoryRepository } from './user-directory.repository.ts';
import { UserDirectoryService } from './user-directory.service.ts';
import { UsersService } from './users.service.ts';
import { usersResetTwoFactorCommand } from './users-reset-two-factor.command.ts';

export const accountsArea = defineArea({
  name: 'accounts',
  needs: ['geography'],
  create(
    {
      transactions,
      events,
      audit,
      jobs,
      clock,
      config,
      mail,
      logger,
      broadcast,
      caches,
      stats,
      rateLimitStore,
      exports,
    },
    { geography },
  ) {
    const sessionCache = new SessionCache({ clock, ttlSeconds: config.sessionCacheSeconds, broadcast, transactions });
    caches.register('accounts.sessions', sessionCache);
    const accountStats = new AccountsStatsRepository(transactions);
    stats.register('users', (since) => accountStats.users(since));
    stats.register('sessions', (since) => accountStats.sessions(since));
    const repository = new AccountsRepository(transactions, sessionCache);
    exports.register({
      name: 'profile',
      description:
        'Your account: e-mail, username, nickname, level and experience, settings, postal address, sponsorship and moderation dates (no password hash).',
      rows: (userId) => singleRow(() => repository.exportProfile(userId)),
    });
    exports.register({
      name: 'sessions',
      description:
        'Your sign-in sessions: when each began, was last seen and expires, its user agent and IP address (no token).',
      rows: (userId) => byId((after, limit) => repository.exportSessions(userId, after, limit)),
    });
    const twoFactorRepository = new TwoFactorRepository(transactions);
    const twoFactorKeys = new TwoFactorKeys(lazyServerSecret(config.dataDir, 'two-factor', config.twoFactorSecret));
    const notices = new SignInNotices({ accounts: repository, repository: twoFactorRepository, mail, clock });
    const twoFactor = new TwoFactorService({
      transactions,
      accounts: repository,
      repository: twoFactorRepository,
      keys: twoFactorKeys,
      throttle: new TwoFactorThrottle({ store: rateLimitStore, clock, enabled: config.rateLimits }),
      notices,
      audit,
      clock,
    });
    exports.register({
      name: 'two-factor',
      description:
        'Your two-factor authentication: whether it is on, since when, and how many recovery codes are unused (never the secret or the codes).',
      rows: (userId) => singleRow(() => twoFactorRepository.exportTwoFactor(userId)),
    });
    exports.register({
      name: 'sign-in-devices',
      description:
        'The devices you signed in from (user agent and network), first and last seen: what the new-device mail compares with.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => twoFactorRepository.exportDevices(userId, after, limit),
          (row) => row.deviceKey,
        ),
    });
    // Erasure and anonymization take two-factor and the sign-in devices with them, in their transaction.
    events.subscribe('user.erasing', 'inTransaction', 'accounts.eraseTwoFactor', ({ userId }) =>
      twoFactorRepository.eraseUser(userId),
    );
    events.subscribe('user.anonymized', 'inTransaction', 'accounts.eraseTwoFactorOfAnonymized', ({ userId }) =>
      twoFactorRepository.eraseUser(userId),
    );
    const relationsRepository = new RelationsRepository(transactions);
    const relations = new RelationsService({
      transactions,
      events,
      repository: relationsRepository,
      accounts: repository,
      clock,
    });
    exports.register({
      name: 'blocks',
      description: 'The accounts you block (blockedId), and since when (not who blocks you).',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => relationsRepository.exportBlocks(userId, after, limit),
          (row) => row.blockedId,
        ),
    });
    exports.register({
      name: 'mutes',
      description: 'The accounts you mute (mutedId): since when, whether notifications too, and until when.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => relationsRepository.exportMutes(userId, after, limit),
          (row) => row.mutedId,
        ),
    });
    const domainBlocksRepository = new DomainBlocksRepository(transactions);
    const domainBlocks = new DomainBlocksService({
      transactions,
      events,
      repository: domainBlocksRepository,
      accounts: repository,
      clock,
    });
    exports.register({
      name: 'domain-blocks',
      description: 'The remote domains you block, and since when.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => domainBlocksRepository.exportRows(userId, after, limit),
          (row) => row.domain,
        ),
    });
    // Blocks and mutes both ways (the user row's cascade would too; said here, as every area does).
    events.subscribe('user.erasing', 'inTransaction', 'accounts.eraseRelations', ({ userId }) =>
      relationsRepository.eraseUser(userId),
    );
    const sessions = new SessionsService({
      repository,
      cache: sessionCache,
      clock,
      ttlDays: config.sessionTtlDays,
      transactions,
      twoFactor,
      twoFactorRepository,
      keys: twoFactorKeys,
      notices,
    });
    const mailTokens = new MailTokens(clock);
    const mailFlows = new MailFlowsService({
      transactions,
      repository,
      tokens: mailTokens,
      mail,
      clock,
      publicUrl: config.publicUrl,
      logger,
      events,
    });
    const moderation = new ModerationService({
      transactions,
      events,
      audit,
      accounts: repository,
      repository: new ModerationRepository(transactions),
      clock,
      mail,
    });
    // Bans whose `until` has passed are lifted through the same path as an operator's unban.
    jobs.register('bans', { schedule: everyMinutes(1), run: () => moderation.liftEndedBans() });
    const deletionRepository = new DeletionRepository(transactions);
    const throttle = new LoginThrottle({ store: rateLimitStore, clock, enabled: config.rateLimits });
    const deletion = new DeletionService({
      transactions,
      events,
      audit,
      accounts: repository,
      repository: deletionRepository,
      tokens: mailTokens,
      mail,
      clock,
      publicUrl: config.publicUrl,
      logger,
      graceDays: config.accountDeletionGraceDays,
    });
    // Signing in during the grace period cancels the deletion, whatever the sign-in method.
    sessions.beforeSignIn((user) => deletion.cancelOnSignIn(user));
    jobs.register('account-erasure', {
      schedule: everyMinutes(15),
      run: () => deletion.eraseDue(),
      retryWhen: (report) => (report.failed as number) > 0,
    });
    // In the registration's transaction: the account exists if and only if its confirmation mail is
    // filed. An address an identity provider vouched for is confirmed already (identities area): no mail.
    events.subscribe('user.registered', 'inTransaction', 'accounts.confirmationMail', async ({ user, locale }) => {
      if (user.emailConfirmedAt === null) await mailFlows.sendConfirmation(user, locale);
    });
    return {
      accounts: new AccountsService({
        repository,
        sessions,
        clock,
        transactions,
        events,
        moderation,
        throttle,
      }),
      reauthentication: new ReauthenticationService({
        repository,
        sessionOpenings: deletionRepository,
        throttle,
        clock,
      }),
      sessions,
      twoFactor,
      sessionCache,
      mailFlows,
      profile: new ProfileService({ repository, clock, transactions, events }),
      passwords: new PasswordService({ repository, clock }),
      settings: new SettingsService({ repository, clock, transactions, events, geography: geography.geography }),
      directory: new UserDirectoryService({
        directory: new UserDirectoryRepository(transactions),
        accounts: repository,
      }),
      users: new UsersService({ repository, relations, clock }),
      relations,
      domainBlocks,
      moderation,
      deletion,
    };
  },
  routes(app, services) {
    registerRoutes(app, 'auth', [...authRoutes(services), ...mailFlowsRoutes(services)]);
    registerRoutes(app, 'account', [
      ...accountRoutes(services),
      ...deletionRoutes(services),
      ...twoFactorRoutes(services),
      ...relationsRoutes(services),
      ...domainBlocksRoutes(services),
    ]);
  },
  // Mail requests are worked after their answer; a graceful stop waits for them to file their mail.
  stop: ({ mailFlows }) => mailFlows.drain(),
  cliCommands: [usersCreateCommand, usersResetTwoFactorCommand],
});
