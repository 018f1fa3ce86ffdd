/**
 * Flag at the inboxes (docs/api.md, Federation): another server's report, as Mastodon sends it (its
 * `object` the reported account and the statuses chosen, its `content` the reporter's comment), filed
 * in the reports queue through the reports area's own method, in the name of the Flag's actor's
 * shadow (Mastodon signs reports with its instance actor, so a server's reports share one reporter).
 * The posts and comments named are reported; the accounts named only when no post or comment is
 * (Mastodon names the account in every report; its posts tell the operator more). What the actor may
 * not see, and a report already open from the same reporter, is skipped, as the API would refuse it.
 * Only the first `maxFlagObjects` objects are read.
 */
import type { InboxContext } from '@fedify/fedify';
import type { Flag } from '@fedify/fedify/vocab';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { defaultLocale } from '../../../platform/i18n/i18n.ts';
import { maxReportDetailsLength, type ReportsService } from '../../reports/public.ts';
import { mediaIdOfPostUri } from '../actor-paths.ts';
import { plainTextOf } from '../plain-text.ts';
import type { RemoteActorsService } from '../remote-actors.service.ts';
import type { RemoteCommentsService } from '../remote-comments.service.ts';
import { localUserOf, remoteActorOf } from './remote-party.ts';

export interface FlagHandlerDeps {
  remoteActors: RemoteActorsService;
  remoteComments: RemoteCommentsService;
  reports: ReportsService;
}

interface Target {
  kind: 'media' | 'comment' | 'user';
  id: string;
}

/**
 * The most objects of a Flag read (Mastodon names the account and the few statuses chosen): each one
 * may cost a lookup and a report, and a 1 MB Flag could name twenty thousand.
 */
export const maxFlagObjects = 50;

/** The reports area's refusals of a report (nothing there for the reporter, their own, already open). */
const skipped = new Set(['notFound', 'cannotReportSelf', 'alreadyReported']);

/** What the Flag names here: local posts, comments written from other servers, local accounts. */
async function targetsOf(deps: FlagHandlerDeps, ctx: InboxContext<null>, flag: Flag): Promise<Target[]> {
  const content: Target[] = [];
  const users: Target[] = [];
  for (const uri of flag.objectIds.slice(0, maxFlagObjects)) {
    const mediaId = mediaIdOfPostUri(uri, ctx.origin);
    const userId = localUserOf(ctx, uri);
    const commentId = mediaId === null && userId === null ? await deps.remoteComments.commentIdOf(uri.href) : null;
    if (mediaId !== null) content.push({ kind: 'media', id: mediaId });
    else if (userId !== null) users.push({ kind: 'user', id: userId });
    else if (commentId !== null) content.push({ kind: 'comment', id: commentId });
  }
  return content.length > 0 ? content : users;
}

export async function onFlag(deps: FlagHandlerDeps, ctx: InboxContext<null>, flag: Flag): Promise<void> {
  const targets = await targetsOf(deps, ctx, flag);
  if (targets.length === 0) return;
  const reporter = await remoteActorOf(ctx, deps.remoteActors, flag.actorId);
  if (reporter === null) return;
  const details = plainTextOf(flag.content?.toString(), maxReportDetailsLength, true);
  for (const { kind, id } of targets) {
    await deps.reports
      .file(reporter.userId, kind, id, { reason: 'other', details }, defaultLocale)
      .catch((error: unknown) => {
        if (!(error instanceof AppError && skipped.has(error.code))) throw error;
      });
  }
}
