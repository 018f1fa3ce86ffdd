/**
 * The SQL of the live stream: the owner's notifications after a stream position (the replay, and what
 * a wake-up sends), the owner's last position, and the registry of open streams the per-user cap counts.
 */
import { desc, eq, inArray, sql } from 'drizzle-orm';
import { nameOf } from '../../../platform/db/column-names.ts';
import { Repository } from '../../../platform/db/repository.ts';
import { queryRows } from '../../../platform/db/rows.ts';
import { runStatement, statement } from '../../../platform/db/statements.ts';
import { notHiddenByFiltersText, notificationFilterText } from '../../filters/read-model.ts';
import type { FeedItem } from '../feed-statements.ts';
import { notificationStreams, notifications } from '../tables.ts';

/** A notification as the stream sends it: what the feed shows, and its position. */
export type StreamItem = FeedItem & { streamSeq: number };

/** $1 the owner, $2 the position to read after, $3 the rows to read, $4 the owner's hide filters' patterns. */
const rowsAfterStatement = statement<FeedItem & { streamSeq: string | number }>(
  'notifications.stream.rowsAfter',
  `SELECT id, type, data, read_at AS "readAt", created_at AS "createdAt", stream_seq AS "streamSeq"
   FROM notifications
   WHERE owner_id = $1::uuid AND stream_seq > $2::bigint
     AND ${notHiddenByFiltersText('$4::text[]', notificationFilterText('data'))}
   ORDER BY stream_seq
   LIMIT $3::int`,
);

const s = notificationStreams;

export class StreamRepository extends Repository {
  /** The owner's notifications after `afterSeq`, in stream order, at most `limit`; what the filters hide left out. */
  async rowsAfter(ownerId: string, afterSeq: number, limit: number, hiddenBy: string[]): Promise<StreamItem[]> {
    const rows = await runStatement(this.db, rowsAfterStatement, [ownerId, afterSeq, limit, hiddenBy]);
    return rows.map((row) => ({ ...row, streamSeq: Number(row.streamSeq) }));
  }

  /** The owner's last stream position (0 without a notification). */
  async lastPosition(ownerId: string): Promise<number> {
    const [row] = await queryRows<{ position: string | number | null }>(
      this.db,
      sql`SELECT max(${notifications.streamSeq}) AS position FROM ${notifications} WHERE ${notifications.ownerId} = ${ownerId}`,
    );
    return Number(row?.position ?? 0);
  }

  async register(id: string, userId: string, openedAt: Date): Promise<void> {
    await this.db.insert(notificationStreams).values({ id, userId, openedAt });
  }

  /** Removes the user's registrations but the newest `keep`; returns the ids removed (the streams to close). */
  async trim(userId: string, keep: number): Promise<string[]> {
    const kept = this.db.select({ id: s.id }).from(s).where(eq(s.userId, userId)).orderBy(desc(s.seq)).limit(keep);
    const removed = await queryRows<{ id: string }>(
      this.db,
      sql`DELETE FROM ${s} WHERE ${s.userId} = ${userId} AND ${s.id} NOT IN (${kept}) RETURNING ${nameOf(s.id)} AS id`,
    );
    return removed.map((row) => row.id);
  }

  async unregister(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.delete(notificationStreams).where(inArray(notificationStreams.id, ids));
  }

  /** An erased account (`user.erasing`): its open streams' registrations. */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(notificationStreams).where(eq(notificationStreams.userId, userId));
  }
}
