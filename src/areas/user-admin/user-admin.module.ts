/**
 * User administration: the operators' routes on accounts (GET /admin/users, detail, verified, ban,
 * unban, anonymize) and commands (users:ban, users:unban). The rules live in accounts.moderation; this
 * area puts the pages together with the counts other areas keep.
 */
import { defineArea } from '../../platform/modules/area-module.ts';
import type { ModerationService } from '../accounts/moderation.service.ts';
import { userAdminRoutes } from './user-admin.routes.ts';
import { UserAdminService } from './user-admin.service.ts';
import { usersBanCommand, usersUnbanCommand } from './users-ban.command.ts';

export interface UserAdminServices {
  userAdmin: UserAdminService;
  moderation: ModerationService;
}

declare module '../../platform/modules/area-module.ts' {
  interface AreaServices {
    userAdmin: UserAdminServices;
  }
}

export const userAdminArea = defineArea({
  name: 'userAdmin',
  needs: ['accounts', 'media', 'follows', 'comments', 'reports'],
  create(_platform, { accounts, media, follows, comments, reports }) {
    return {
      userAdmin: new UserAdminService({
        moderation: accounts.moderation,
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
  routes: userAdminRoutes,
  cliCommands: [usersBanCommand, usersUnbanCommand],
});
