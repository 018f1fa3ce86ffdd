/**
 * All SQL of the posts federation sends (federation_post_sync, federation_sent_posts), and the remote
 * followers a local user's activities go to (follows' and accounts' read models joined with
 * federation_remote_actors).
 */
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { nameOf } from '../../../platform/db/column-names.ts';
import { Repository } from '../../../platform/db/repository.ts';
import { userRows, visibleUser } from '../../accounts/read-model.ts';
import { followRows } from '../../follows/read-model.ts';
import {
  federationPostSync,
  federationRemoteActors,
  federationSentPosts,
  type PostSyncRow,
  type RemoteActorRow,
  type SentPostRow,
} from '../tables.ts';

export class OutboundPostsRepository extends Repository {
  /** Files the post to be sent at `dueAt`; for a post already waiting, the latest change sets when. */
  async markDue(mediaId: string, ownerId: string, dueAt: Date): Promise<void> {
    await this.db
      .insert(federationPostSync)
      .values({ mediaId, ownerId, dueAt })
      .onConflictDoUpdate({
        target: federationPostSync.mediaId,
        set: { dueAt: sql`excluded.${nameOf(federationPostSync.dueAt)}` },
      });
  }

  /** The posts due by `now`, earliest first. */
  async due(now: Date, limit: number): Promise<PostSyncRow[]> {
    return this.db
      .select()
      .from(federationPostSync)
      .where(lte(federationPostSync.dueAt, now))
      .orderBy(asc(federationPostSync.dueAt))
      .limit(limit);
  }

  /** Takes a due post under a row lock (another instance's run skips it); null when gone or no longer due. */
  async claim(mediaId: string, now: Date): Promise<PostSyncRow | null> {
    const [row] = await this.db
      .select()
      .from(federationPostSync)
      .where(and(eq(federationPostSync.mediaId, mediaId), lte(federationPostSync.dueAt, now)))
      .for('update', { skipLocked: true });
    return row ?? null;
  }

  async done(mediaId: string): Promise<void> {
    await this.db.delete(federationPostSync).where(eq(federationPostSync.mediaId, mediaId));
  }

  async postpone(mediaId: string, dueAt: Date): Promise<void> {
    await this.db.update(federationPostSync).set({ dueAt }).where(eq(federationPostSync.mediaId, mediaId));
  }

  async sent(mediaId: string): Promise<SentPostRow | null> {
    const [row] = await this.db.select().from(federationSentPosts).where(eq(federationSentPosts.mediaId, mediaId));
    return row ?? null;
  }

  async recordSent(row: SentPostRow): Promise<void> {
    await this.db
      .insert(federationSentPosts)
      .values(row)
      .onConflictDoUpdate({ target: federationSentPosts.mediaId, set: { digest: row.digest, sentAt: row.sentAt } });
  }

  async forgetSent(mediaId: string): Promise<void> {
    await this.db.delete(federationSentPosts).where(eq(federationSentPosts.mediaId, mediaId));
  }

  /** The user's followers that are remote actors (visible: a banned actor is sent nothing), by actor URI. */
  async remoteFollowersOf(userId: string): Promise<RemoteActorRow[]> {
    const rows = await this.db
      .select({ actor: federationRemoteActors })
      .from(followRows)
      .innerJoin(federationRemoteActors, eq(federationRemoteActors.userId, followRows.followerId))
      .innerJoin(userRows, eq(userRows.id, followRows.followerId))
      .where(and(eq(followRows.followeeId, userId), visibleUser()))
      .orderBy(asc(federationRemoteActors.actorUri));
    return rows.map((row) => row.actor);
  }

  /** Whether the user has a remote follower (visible). */
  async hasRemoteFollower(userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ one: sql<number>`1` })
      .from(followRows)
      .innerJoin(federationRemoteActors, eq(federationRemoteActors.userId, followRows.followerId))
      .innerJoin(userRows, eq(userRows.id, followRows.followerId))
      .where(and(eq(followRows.followeeId, userId), visibleUser()))
      .limit(1);
    return row !== undefined;
  }

  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(federationPostSync).where(eq(federationPostSync.ownerId, userId));
    await this.db.delete(federationSentPosts).where(eq(federationSentPosts.ownerId, userId));
  }
}
