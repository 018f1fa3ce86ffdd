/**
 * Appeals: every moderation decision that touches a user (a media hidden, a comment deleted by a
 * moderator, a ban started) is recorded from the owning area's event in the action's transaction and
 * told to the user by mail; the user may appeal it once until its window closes (a banned user through
 * a single-use mailed link), and operators uphold or reverse it, a reversal undoing the action through
 * the owning area in the same transaction.
 */
import { byId } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { AppealReviewService } from './admin/appeal-review.service.ts';
import { AppealMails } from './appeal-mails.ts';
import { appealsAdminRoutes } from './appeals.admin-routes.ts';
import { AppealsRepository } from './appeals.repository.ts';
import { appealsRoutes } from './appeals.routes.ts';
import { AppealsService } from './appeals.service.ts';
import { DecisionsService } from './decisions.service.ts';
import { DecisionReversal } from './reversal.ts';

export const appealsArea = defineArea({
  name: 'appeals',
  needs: ['accounts', 'media', 'comments'],
  create({ transactions, events, audit, clock, mail, config, exports }, { accounts, media, comments }) {
    const repository = new AppealsRepository(transactions);
    const mails = new AppealMails({ repository, users: accounts.users, mail, clock, publicUrl: config.publicUrl });
    const decisions = new DecisionsService({ transactions, repository, mails, clock });

    events.subscribe('media.hiddenByModerator', 'inTransaction', 'appeals.recordMediaHidden', async (event) => {
      await decisions.record({
        userId: event.media.ownerId,
        kind: 'mediaHidden',
        targetId: event.media.id,
        mediaId: event.media.id,
        previousFlag: event.previousFlag,
        context: event.context,
      });
    });
    events.subscribe('comment.removedByModerator', 'inTransaction', 'appeals.recordCommentDeleted', async (event) => {
      await decisions.record({
        userId: event.authorId,
        kind: 'commentDeleted',
        targetId: event.commentId,
        mediaId: event.mediaId,
        removedText: event.body,
        context: event.context,
      });
    });
    events.subscribe('user.bannedByModerator', 'inTransaction', 'appeals.recordBan', async (event) => {
      // A ban taken directly (admin route, CLI) has the operator's reason as its note.
      const note = event.context.reportId === null ? (event.context.note ?? event.reason) : event.context.note;
      await decisions.record({
        userId: event.userId,
        kind: 'userBanned',
        targetId: event.userId,
        banUntil: event.until,
        context: { ...event.context, note },
      });
    });
    events.subscribe('user.registered', 'inTransaction', 'appeals.rememberLocale', ({ user, locale }) =>
      mails.rememberLocale(user.id, locale),
    );
    events.subscribe('user.anonymized', 'inTransaction', 'appeals.eraseAnonymized', ({ userId }) =>
      repository.eraseUser(userId),
    );
    events.subscribe('user.erasing', 'inTransaction', 'appeals.erase', ({ userId }) => repository.eraseUser(userId));

    exports.register({
      name: 'moderation-decisions',
      description:
        'The moderation decisions about you: what was done, the report reason and moderator note, the appeal window.',
      rows: (userId) => byId((after, limit) => repository.exportDecisions(userId, after, limit)),
    });
    exports.register({
      name: 'appeals',
      description: 'Your appeals of moderation decisions: your text, their status and the moderator’s answer.',
      rows: (userId) => byId((after, limit) => repository.exportAppeals(userId, after, limit)),
    });

    return {
      decisions,
      appeals: new AppealsService({ transactions, repository, clock }),
      appealReview: new AppealReviewService({
        transactions,
        audit,
        repository,
        reversal: new DecisionReversal({
          mediaAdmin: media.mediaAdmin,
          comments: comments.comments,
          moderation: accounts.moderation,
        }),
        mails,
        clock,
      }),
    };
  },
  routes(app, services) {
    registerRoutes(app, 'appeals', appealsRoutes(services));
    registerRoutes(app, 'admin', appealsAdminRoutes(services));
  },
});
