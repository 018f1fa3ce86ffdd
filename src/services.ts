/**
 * The services of every area, built once per app from its dependencies. Areas call each other only
 * through these (e.g. follows -> notifications.dispatch), never through another area's repository.
 */
import type { FastifyBaseLogger } from 'fastify';
import { AccountsRepository } from './areas/accounts/accounts.repository.ts';
import { AccountsService } from './areas/accounts/accounts.service.ts';
import { MailFlowsService } from './areas/accounts/mail-flows.service.ts';
import { MailTokens } from './areas/accounts/mail-tokens.ts';
import { PasswordService } from './areas/accounts/password.service.ts';
import { ProfileService } from './areas/accounts/profile.service.ts';
import { SessionsService } from './areas/accounts/sessions.service.ts';
import { SettingsService } from './areas/accounts/settings.service.ts';
import { UserDirectoryRepository } from './areas/accounts/user-directory.repository.ts';
import { UserDirectoryService } from './areas/accounts/user-directory.service.ts';
import { AuditLog } from './areas/admin/audit.ts';
import { BookmarksRepository } from './areas/bookmarks/bookmarks.repository.ts';
import { BookmarksService } from './areas/bookmarks/bookmarks.service.ts';
import { CollectionsRepository } from './areas/bookmarks/collections.repository.ts';
import { CollectionsService } from './areas/bookmarks/collections.service.ts';
import { FollowsRepository } from './areas/follows/follows.repository.ts';
import { FollowsService } from './areas/follows/follows.service.ts';
import { GamificationRepository } from './areas/gamification/gamification.repository.ts';
import { GamificationService } from './areas/gamification/gamification.service.ts';
import { MediaRepository } from './areas/media/media.repository.ts';
import { MediaService } from './areas/media/media.service.ts';
import { createMediaServices } from './areas/media/media.services.ts';
import { NotificationDispatcher } from './areas/notifications/dispatch.service.ts';
import { NotificationsRepository } from './areas/notifications/notifications.repository.ts';
import { NotificationsService } from './areas/notifications/notifications.service.ts';
import { PushFlush } from './areas/notifications/push-flush.ts';
import { ReactionsRepository } from './areas/reactions/reactions.repository.ts';
import { experienceForLikeReceived, ReactionsService } from './areas/reactions/reactions.service.ts';
import type { AppDeps } from './deps.ts';
import { everyMinutes, JobRunner } from './platform/jobs/jobs.ts';

export function createServices(deps: AppDeps, logger: FastifyBaseLogger) {
  const { database, clock, config } = deps;
  const jobs = new JobRunner(database, logger);
  const audit = new AuditLog(database.db, clock);
  const accountsRepository = new AccountsRepository(database.db);
  const sessions = new SessionsService(accountsRepository, clock, config.sessionTtlDays);
  const accounts = new AccountsService(accountsRepository, sessions, clock);
  const mailFlows = new MailFlowsService(
    database.db,
    accountsRepository,
    new MailTokens(clock),
    deps.mailer,
    clock,
    config.publicUrl,
    logger,
  );
  accounts.onRegistered((user, { locale }) => mailFlows.sendConfirmation(user, locale));
  const profile = new ProfileService(accountsRepository, clock);
  const passwords = new PasswordService(accountsRepository, clock);
  const settings = new SettingsService(accountsRepository, clock);
  const directory = new UserDirectoryService(new UserDirectoryRepository(database.db), accountsRepository);
  const mediaRepository = new MediaRepository(database.db);
  const media = new MediaService(mediaRepository, clock);
  const reactions = new ReactionsService(database.db, new ReactionsRepository(database.db), media, accounts, clock);
  const notificationsRepository = new NotificationsRepository(database.db);
  const notificationDispatcher = new NotificationDispatcher(
    notificationsRepository,
    clock,
    config.notificationDedupWindowMinutes,
  );
  const notifications = new NotificationsService(notificationsRepository, clock);
  const pushFlush = new PushFlush(notificationsRepository, deps.push, clock, logger);
  jobs.register('notifications-push', {
    schedule: everyMinutes(config.notificationDigestIntervalMinutes),
    run: () => pushFlush.run(),
    // Rows whose push failed retryably are back in the table; the queue's retry (with backoff) sends them.
    retryWhen: (report) => Number(report.retryLater) > 0,
  });
  const gamification = new GamificationService(
    database.db,
    new GamificationRepository(database.db),
    notificationDispatcher,
    clock,
  );
  reactions.onLikeReceived((like, tx) =>
    gamification
      .awardExperience(like.ownerId, experienceForLikeReceived, 'reaction.likeReceived', tx)
      .then(() => undefined),
  );
  const follows = new FollowsService(
    database.db,
    new FollowsRepository(database.db),
    notificationDispatcher,
    gamification,
    clock,
  );
  const mediaServices = createMediaServices(deps, mediaRepository, jobs, gamification);
  const bookmarkCollections = new CollectionsService(new CollectionsRepository(database.db), clock);
  const bookmarks = new BookmarksService(
    database.db,
    new BookmarksRepository(database.db),
    bookmarkCollections,
    media,
    clock,
  );
  return {
    jobs,
    audit,
    accountsRepository,
    sessions,
    accounts,
    mailFlows,
    profile,
    passwords,
    settings,
    directory,
    media,
    reactions,
    notificationDispatcher,
    notifications,
    gamification,
    follows,
    ...mediaServices,
    bookmarkCollections,
    bookmarks,
  };
}

export type Services = ReturnType<typeof createServices>;
