/** All SQL of local users' follows of remote accounts (federation_outbound_follows). */
import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { type PublicUserRow, publicUserColumns, userRows as users } from '../accounts/read-model.ts';
import { federationRemoteActors, type OutboundFollowRow, federationOutboundFollows as outbound } from './tables.ts';

/** A remote follow as its list shows it: the follow, the remote account and its actor's URL. */
export interface OutboundFollowListed {
  follow: OutboundFollowRow;
  user: PublicUserRow;
  actorUri: string;
}

/** A user's remote follows, newest request first. */
export const outboundFollowsKeyset = defineKeyset<OutboundFollowListed>({
  name: 'remote-following',
  shape: ['timestamp', 'uuid'],
  columns: [outbound.requestedAt, outbound.remoteUserId],
  keyOf: (row) => [row.follow.requestedAt, row.follow.remoteUserId],
});

export class OutboundFollowsRepository extends Repository {
  async find(userId: string, remoteUserId: string): Promise<OutboundFollowRow | null> {
    const [row] = await this.db
      .select()
      .from(outbound)
      .where(and(eq(outbound.userId, userId), eq(outbound.remoteUserId, remoteUserId)));
    return row ?? null;
  }

  async findByFollowUri(followUri: string): Promise<OutboundFollowRow | null> {
    const [row] = await this.db.select().from(outbound).where(eq(outbound.followUri, followUri));
    return row ?? null;
  }

  /** A new request, or a repeated one (pending again, under the Follow id it already had, its schedule restarted). */
  async request(
    row: Pick<OutboundFollowRow, 'userId' | 'remoteUserId' | 'followUri' | 'requestedAt' | 'nextAttemptAt'>,
  ): Promise<OutboundFollowRow> {
    const [saved] = await this.db
      .insert(outbound)
      .values({ ...row, state: 'pending', acceptedAt: null, attempts: 1 })
      .onConflictDoUpdate({
        target: [outbound.userId, outbound.remoteUserId],
        set: { attempts: 1, nextAttemptAt: row.nextAttemptAt },
        setWhere: eq(outbound.state, 'pending'),
      })
      .returning();
    return saved ?? ((await this.find(row.userId, row.remoteUserId)) as OutboundFollowRow);
  }

  async accept(userId: string, remoteUserId: string, at: Date): Promise<void> {
    await this.db
      .update(outbound)
      .set({ state: 'accepted', acceptedAt: at, nextAttemptAt: null })
      .where(and(eq(outbound.userId, userId), eq(outbound.remoteUserId, remoteUserId)));
  }

  /** Pending requests due (to be sent again, or to expire), the longest waiting first. */
  async due(now: Date, limit: number): Promise<OutboundFollowRow[]> {
    return this.db
      .select()
      .from(outbound)
      .where(and(eq(outbound.state, 'pending'), lte(outbound.nextAttemptAt, now)))
      .orderBy(outbound.nextAttemptAt)
      .limit(limit);
  }

  /**
   * The due request taken for one more send (`attempts` and its next time), if it is still as read:
   * another instance's run, an answer or a withdrawal meanwhile leave it to them (false).
   */
  async claimRetry(row: OutboundFollowRow, nextAttemptAt: Date): Promise<boolean> {
    const claimed = await this.db
      .update(outbound)
      .set({ attempts: row.attempts + 1, nextAttemptAt })
      .where(this.#asRead(row))
      .returning({ userId: outbound.userId });
    return claimed.length > 0;
  }

  /** The due request deleted as expired, if it is still as read (false otherwise). */
  async expire(row: OutboundFollowRow): Promise<boolean> {
    const deleted = await this.db.delete(outbound).where(this.#asRead(row)).returning({ userId: outbound.userId });
    return deleted.length > 0;
  }

  #asRead(row: OutboundFollowRow) {
    return and(
      eq(outbound.userId, row.userId),
      eq(outbound.remoteUserId, row.remoteUserId),
      eq(outbound.state, 'pending'),
      eq(outbound.attempts, row.attempts),
      row.nextAttemptAt === null ? isNull(outbound.nextAttemptAt) : eq(outbound.nextAttemptAt, row.nextAttemptAt),
    );
  }

  async delete(userId: string, remoteUserId: string): Promise<OutboundFollowRow | null> {
    const [row] = await this.db
      .delete(outbound)
      .where(and(eq(outbound.userId, userId), eq(outbound.remoteUserId, remoteUserId)))
      .returning();
    return row ?? null;
  }

  /** The user's remote follows (pending and accepted), newest request first. */
  async list(userId: string, page: PageRequest): Promise<OutboundFollowListed[]> {
    const { where, orderBy } = keyset(outboundFollowsKeyset, page);
    return this.#listed()
      .where(and(eq(outbound.userId, userId), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** One remote follow of the user as the list shows it. */
  async listedOne(userId: string, remoteUserId: string): Promise<OutboundFollowListed | null> {
    const [row] = await this.#listed().where(and(eq(outbound.userId, userId), eq(outbound.remoteUserId, remoteUserId)));
    return row ?? null;
  }

  #listed() {
    return this.db
      .select({ follow: outbound, user: publicUserColumns, actorUri: federationRemoteActors.actorUri })
      .from(outbound)
      .innerJoin(users, eq(users.id, outbound.remoteUserId))
      .innerJoin(federationRemoteActors, eq(federationRemoteActors.userId, outbound.remoteUserId))
      .$dynamic();
  }

  /** The user's remote follows for their data export (keyset batches by the remote account's id). */
  async exportRows(userId: string, after: string | null, limit: number) {
    return this.db
      .select({
        remoteUserId: outbound.remoteUserId,
        actorUrl: federationRemoteActors.actorUri,
        state: outbound.state,
        requestedAt: outbound.requestedAt,
        acceptedAt: outbound.acceptedAt,
      })
      .from(outbound)
      .innerJoin(federationRemoteActors, eq(federationRemoteActors.userId, outbound.remoteUserId))
      .where(and(eq(outbound.userId, userId), after === null ? undefined : gt(outbound.remoteUserId, after)))
      .orderBy(outbound.remoteUserId)
      .limit(limit);
  }

  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(outbound).where(eq(outbound.userId, userId));
    await this.db.delete(outbound).where(eq(outbound.remoteUserId, userId));
  }
}
