/**
 * A silenced domain's actors (domain-blocks.service.ts, Mastodon's "limit") reach only the local users
 * who follow them: an inbox handler asks `reachesLocalUser` before a Follow, a Like or a reply acts
 * toward a local user, and refuses (Reject) or ignores the activity otherwise.
 */
import { AppError } from '../../../platform/http/error-catalogue.ts';
import type { FollowsService } from '../../follows/public.ts';
import type { RemoteActorRow } from '../tables.ts';

export interface SilencedActorsDeps {
  /** The block in force for a host: 'silence' limits the host's actors. */
  domainSeverityOf(host: string): Promise<'reject' | 'silence' | null>;
  follows: FollowsService;
}

/** Whether the actor may act toward the local user: not silenced, or followed by them. */
export async function reachesLocalUser(
  deps: SilencedActorsDeps,
  actor: RemoteActorRow,
  localUserId: string,
): Promise<boolean> {
  if ((await deps.domainSeverityOf(new URL(actor.actorUri).host)) !== 'silence') return true;
  try {
    return (await deps.follows.relationship(localUserId, actor.userId)).following !== null;
  } catch (error) {
    // The actor is hidden from the local user (banned, a block): it reaches nobody.
    if (error instanceof AppError && error.code === 'notFound') return false;
    throw error;
  }
}
