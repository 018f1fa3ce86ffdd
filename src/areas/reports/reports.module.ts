/**
 * Reports: users report media, users and comments; operators list them, look at one with its target's
 * current state, and resolve it (actioned or dismissed), hiding the media, deleting the comment or
 * banning the user in the same transaction, which files the reporter's outcome mail too.
 * Other areas read `reports.countAgainst` (user administration) and `reports.stats` (statistics).
 */
import { byId } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { ReportHandlingService } from './admin/report-handling.service.ts';
import { OutcomeMails } from './outcome-mails.ts';
import { reportHandlingAdminRoutes } from './report-handling.admin-routes.ts';
import { ReportsRepository } from './reports.repository.ts';
import { reportsRoutes } from './reports.routes.ts';
import { ReportsService } from './reports.service.ts';

export const reportsArea = defineArea({
  name: 'reports',
  needs: ['accounts', 'media', 'comments'],
  create({ transactions, events, audit, clock, mail, stats, exports }, { accounts, media, comments }) {
    const repository = new ReportsRepository(transactions);
    exports.register({
      name: 'reports',
      description: 'The reports you made: what you reported, why, and how it was resolved.',
      rows: (userId) => byId((after, limit) => repository.exportRows(userId, after, limit)),
    });
    const outcomeMails = new OutcomeMails(accounts.users, mail);
    const reports = new ReportsService(repository, media.media, accounts.users, comments.comments, clock);
    stats.register('reports', (since) => reports.stats(since));
    events.subscribe(
      'user.anonymized',
      'inTransaction',
      'reports.eraseFormerUsername',
      ({ formerUsername, username }) =>
        formerUsername === null ? Promise.resolve() : reports.eraseFormerUsername(formerUsername, username),
    );
    events.subscribe('user.erasing', 'inTransaction', 'reports.erase', ({ userId }) => reports.eraseUser(userId));
    return {
      reports,
      reportHandling: new ReportHandlingService(
        transactions,
        audit,
        repository,
        { mediaAdmin: media.mediaAdmin, comments: comments.comments, bans: accounts.moderation },
        outcomeMails,
        clock,
      ),
    };
  },
  routes(app, services) {
    registerRoutes(app, 'reports', reportsRoutes(services));
    registerRoutes(app, 'admin', reportHandlingAdminRoutes(services));
  },
});
