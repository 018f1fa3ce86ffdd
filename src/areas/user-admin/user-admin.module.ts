/**
 * User administration: the operators' routes on accounts (GET /admin/users, detail, verified, ban,
 * unban, anonymize) and commands (users:ban, users:unban). The rules live in accounts.moderation; this
 * area puts the pages together with the counts other areas keep.
 */
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { UserAdminService } from './user-admin.service.ts';
import { usersAdminRoutes } from './users.admin-routes.ts';
import { usersBanCommand, usersUnbanCommand } from './users-ban.command.ts';

export const userAdminArea = defineArea({
  name: 'userAdmin',
  needs: ['accounts', 'media', 'follows', 'comments', 'reports'],
  create(_platform, { accounts, media, follows, comments, reports }) {
    return {
      userAdmin: new UserAdminService({
        moderation: accounts.moderation,
        twoFactor: accounts.twoFactor,
        follows: follows.follows,
        media: media.media,
        sources: {
          commentsBy: (userId) => comments.comments.writtenBy(userId),
          reportsAgainst: (userId) => reports.reports.countAgainstUser(userId),
        },
      }),
      moderation: accounts.moderation,
    };
  },
  routes: (app, services) => registerRoutes(app, 'admin', usersAdminRoutes(services)),
  cliCommands: [usersBanCommand, usersUnbanCommand],
});
