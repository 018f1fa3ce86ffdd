/** All SQL of notifications: the feed, soft-dedup dispatch, preferences and the push flush. */
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { nameOf, namesOf } from '../../platform/db/column-names.ts';
import { newestFirst } from '../../platform/db/keyset.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { runStatement } from '../../platform/db/statements.ts';
import {
  type FeedItem,
  type FeedPageRow,
  feedPageStatements,
  feedPageValues,
  unreadCountStatement,
} from './feed-statements.ts';
import type { NotificationChannel, NotificationKind } from './kinds.ts';
import { type NotificationRow, notificationCounters, notificationPreferences, notifications } from './tables.ts';

export interface NewNotification {
  id: string;
  ownerId: string;
  type: NotificationKind;
  data: Record<string, unknown>;
  dedupKey: string | null;
  createdAt: Date;
}

export interface PreferenceCell {
  kind: string;
  channel: NotificationChannel;
  enabled: boolean;
}

/** The feed: newest first by (createdAt, id). */
export const notificationsKeyset = newestFirst<NotificationRow>('notifications', notifications);

/** A row a push flush holds: what it needs to decide and render. */
export interface PushClaim {
  id: string;
  type: NotificationKind;
  rejections: number;
  createdAt: Date;
}

const n = notifications;

/** The follow notifications naming the actor (frozen in their data). */
const namingActor = (actorId: string) => sql`${n.type} = 'follow.received' AND ${n.data} ->> 'actorId' = ${actorId}`;

export class NotificationsRepository extends Repository {
  // ---- dispatch ----

  async insert(row: NewNotification): Promise<void> {
    await this.db.insert(notifications).values({ ...row, dedupOpen: false });
  }

  /** Unread rows of this key older than the window stop absorbing dispatches (they leave the dedup index). */
  async closeStaleDedup(ownerId: string, dedupKey: string, windowStart: Date): Promise<void> {
    await this.db.execute(sql`
      UPDATE ${n} SET ${nameOf(n.dedupOpen)} = false
      WHERE ${n.ownerId} = ${ownerId} AND ${n.dedupKey} = ${dedupKey} AND ${n.dedupOpen} AND ${n.readAt} IS NULL
        AND ${n.createdAt} < ${windowStart.toISOString()}::timestamptz`);
  }

  /**
   * Inserts the row, or, when an open unread row with the same (owner, dedup_key) exists and was
   * created inside the window, refreshes only its created_at. Returns the id of the row written, or
   * null when the existing row fell out of the window meanwhile (the caller closes it and retries).
   */
  async insertOrRefresh(row: NewNotification & { dedupKey: string }, windowStart: Date): Promise<string | null> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`
      INSERT INTO ${n} (${namesOf(n.id, n.ownerId, n.type, n.data, n.dedupKey, n.dedupOpen, n.createdAt)})
      VALUES (${row.id}, ${row.ownerId}, ${row.type}, ${JSON.stringify(row.data)}::jsonb, ${row.dedupKey}, true,
              ${row.createdAt.toISOString()}::timestamptz)
      ON CONFLICT (${namesOf(n.ownerId, n.dedupKey)}) WHERE ${nameOf(n.dedupOpen)} AND ${nameOf(n.readAt)} IS NULL
      DO UPDATE SET ${nameOf(n.createdAt)} = GREATEST(${n.createdAt}, EXCLUDED.${nameOf(n.createdAt)}),
        -- A refreshed row moves to the end of its owner's live stream, which sends it again (migration 1800).
        ${nameOf(n.streamSeq)} = nextval('notifications_stream_seq')
        WHERE ${n.createdAt} >= ${windowStart.toISOString()}::timestamptz
      RETURNING ${n.id} AS id`,
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Rewrites the actor's frozen name in every notification naming them (follow.received). Rare (an
   * erasure), so it scans the table rather than keep an index on data->>'actorId'.
   */
  async renameActor(actorId: string, username: string, displayName: string): Promise<void> {
    await this.db.execute(sql`
      UPDATE ${n}
      SET ${nameOf(n.data)} = ${n.data} || jsonb_build_object('actorUsername', ${username}::text, 'actorDisplayName', ${displayName}::text)
      WHERE ${namingActor(actorId)}`);
  }

  /** Sets or clears `actorHidden` in the follow notifications naming the actor; rare too (a ban, a deletion). */
  async setActorHidden(actorId: string, hidden: boolean): Promise<void> {
    await this.db.execute(sql`
      UPDATE ${n}
      SET ${nameOf(n.data)} = ${hidden ? sql`${n.data} || '{"actorHidden": true}'::jsonb` : sql`${n.data} - 'actorHidden'`}
      WHERE ${namingActor(actorId)}`);
  }

  /**
   * A block between two users (`user.blocked`): the follow notifications either received from the
   * other leave their feeds (the counters follow through the triggers of 0130). The owner's index
   * bounds it to the two feeds.
   */
  async forgetBetween(a: string, b: string): Promise<void> {
    await this.db.execute(sql`
      DELETE FROM ${n}
      WHERE (${n.ownerId} = ${a} AND ${namingActor(b)}) OR (${n.ownerId} = ${b} AND ${namingActor(a)})`);
  }

  /**
   * An erased account (`user.erasing`): its notifications, preferences and counters, and the follow
   * notifications others received from it (their counters follow through the triggers of 0130).
   */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(notifications).where(eq(notifications.ownerId, userId));
    await this.db.delete(notifications).where(namingActor(userId));
    await this.db.delete(notificationCounters).where(eq(notificationCounters.ownerId, userId));
    await this.db.delete(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  }

  // ---- feed ----

  /**
   * A page of the owner's feed (limit + 1 rows, newest first as the keyset orders them) and the size
   * of the same filter, in one statement: the counters the triggers of 0130 keep come with the page.
   */
  async feedPage(
    ownerId: string,
    unreadOnly: boolean,
    page: PageRequest,
    hiddenBy: string[] = [],
  ): Promise<{ rows: FeedItem[]; total: number }> {
    const statement = feedPageStatements[page.direction][unreadOnly ? 'unread' : 'all'];
    const rows = await runStatement(this.db, statement, feedPageValues(ownerId, page, hiddenBy));
    const first = rows[0];
    const total = (unreadOnly ? first?.unread : first?.total) ?? 0;
    return { rows: rows.filter((row): row is FeedPageRow & FeedItem => row.id !== null), total };
  }

  async unreadCount(ownerId: string): Promise<number> {
    const [row] = await runStatement(this.db, unreadCountStatement, [ownerId]);
    return row?.unread ?? 0;
  }

  /** Marks one of the owner's rows read (keeping an earlier read time); null when not theirs or missing. */
  async markRead(ownerId: string, id: string, at: Date): Promise<NotificationRow | null> {
    const [row] = await this.db
      .update(notifications)
      .set({ readAt: sql`COALESCE(${notifications.readAt}, ${at.toISOString()}::timestamptz)`, dedupOpen: false })
      .where(and(eq(notifications.id, id), eq(notifications.ownerId, ownerId)))
      .returning();
    return row ?? null;
  }

  async markAllRead(ownerId: string, at: Date): Promise<number> {
    const [row] = await queryRows<{ affected: number }>(
      this.db,
      sql`
      WITH switched AS (
        UPDATE ${n} SET ${nameOf(n.readAt)} = ${at.toISOString()}::timestamptz, ${nameOf(n.dedupOpen)} = false
        WHERE ${n.ownerId} = ${ownerId} AND ${n.readAt} IS NULL
        RETURNING 1
      )
      SELECT count(*)::int AS affected FROM switched`,
    );
    return row?.affected ?? 0;
  }

  async delete(ownerId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(notifications)
      .where(and(eq(notifications.id, id), eq(notifications.ownerId, ownerId)))
      .returning({ id: notifications.id });
    return deleted.length > 0;
  }

  // ---- preferences ----

  async preferenceOverrides(userId: string): Promise<PreferenceCell[]> {
    return (await this.db
      .select({
        kind: notificationPreferences.kind,
        channel: notificationPreferences.channel,
        enabled: notificationPreferences.enabled,
      })
      .from(notificationPreferences)
      .where(eq(notificationPreferences.userId, userId))) as PreferenceCell[];
  }

  async channelEnabled(userId: string, kind: NotificationKind, channel: NotificationChannel): Promise<boolean> {
    const [row] = await this.db
      .select({ enabled: notificationPreferences.enabled })
      .from(notificationPreferences)
      .where(
        and(
          eq(notificationPreferences.userId, userId),
          eq(notificationPreferences.kind, kind),
          eq(notificationPreferences.channel, channel),
        ),
      );
    return row?.enabled ?? true;
  }

  /** Writes every cell in one statement, so a patch applies whole or not at all. */
  async upsertPreferences(userId: string, cells: PreferenceCell[]): Promise<void> {
    if (cells.length === 0) return;
    await this.db
      .insert(notificationPreferences)
      .values(cells.map((cell) => ({ userId, ...cell })))
      .onConflictDoUpdate({
        target: [notificationPreferences.userId, notificationPreferences.kind, notificationPreferences.channel],
        set: { enabled: sql`EXCLUDED.${nameOf(notificationPreferences.enabled)}` },
      });
  }

  // ---- push flush ----

  /** Recipients with at least one unpushed row that no flush holds, in id order after `afterOwnerId`. */
  async recipientsToPush(afterOwnerId: string | null, limit: number, now: Date): Promise<string[]> {
    const rows = await queryRows<{ ownerId: string }>(
      this.db,
      sql`
      SELECT DISTINCT ${n.ownerId} AS "ownerId" FROM ${n}
      WHERE ${n.pushedAt} IS NULL AND (${n.pushClaimedUntil} IS NULL OR ${n.pushClaimedUntil} <= ${now.toISOString()}::timestamptz)
        ${afterOwnerId === null ? sql`` : sql`AND ${n.ownerId} > ${afterOwnerId}`}
      ORDER BY "ownerId"
      LIMIT ${limit}`,
    );
    return rows.map((row) => row.ownerId);
  }

  /**
   * Claims every unpushed row of the owner that no other flush holds, until `until`, in one
   * conditional update: of two flushes racing for the same rows, the second finds them claimed (it
   * waits for the first's row locks, then re-checks the condition) and gets none. Oldest first.
   */
  async claimUnpushed(ownerId: string, now: Date, until: Date): Promise<PushClaim[]> {
    const rows = await queryRows<{ id: string; type: NotificationKind; rejections: number; createdAt: string }>(
      this.db,
      sql`
      UPDATE ${n} SET ${nameOf(n.pushClaimedUntil)} = ${until.toISOString()}::timestamptz
      WHERE ${n.ownerId} = ${ownerId} AND ${n.pushedAt} IS NULL
        AND (${n.pushClaimedUntil} IS NULL OR ${n.pushClaimedUntil} <= ${now.toISOString()}::timestamptz)
      RETURNING ${n.id} AS id, ${n.type} AS type, ${n.pushRejections} AS rejections, ${n.createdAt}::text AS "createdAt"`,
    );
    return rows
      .map((row) => ({
        id: row.id,
        type: row.type,
        rejections: row.rejections,
        createdAt: new Date(row.createdAt),
      }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Sets pushed_at on claimed rows not pushed yet, `chunk` ids per statement. */
  async markPushed(ids: string[], at: Date, chunk = 1000): Promise<void> {
    for (let start = 0; start < ids.length; start += chunk) {
      await this.db
        .update(notifications)
        .set({ pushedAt: at, pushClaimedUntil: null })
        .where(and(inArray(notifications.id, ids.slice(start, start + chunk)), isNull(notifications.pushedAt)));
    }
  }

  /** Gives claimed rows back to the next flush; `rejected` counts a provider's 400 against each. */
  async releaseClaims(ids: string[], rejected: boolean, chunk = 1000): Promise<void> {
    for (let start = 0; start < ids.length; start += chunk) {
      await this.db
        .update(notifications)
        .set({
          pushClaimedUntil: null,
          ...(rejected ? { pushRejections: sql`${notifications.pushRejections} + 1` } : {}),
        })
        .where(and(inArray(notifications.id, ids.slice(start, start + chunk)), isNull(notifications.pushedAt)));
    }
  }

  async findById(id: string): Promise<NotificationRow | null> {
    const [row] = await this.db.select().from(notifications).where(eq(notifications.id, id));
    return row ?? null;
  }

  /**
   * The data export's notifications of a user (their kind, data, when read and pushed; not the push
   * queue's bookkeeping), in keyset batches by id; with `preferences`, the user's preference rows.
   */
  async exportRows(ownerId: string, after: string | null, limit: number) {
    return this.db
      .select({
        id: notifications.id,
        type: notifications.type,
        data: notifications.data,
        readAt: notifications.readAt,
        pushedAt: notifications.pushedAt,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      .where(and(eq(notifications.ownerId, ownerId), after === null ? undefined : gt(notifications.id, after)))
      .orderBy(notifications.id)
      .limit(limit);
  }

  /** The data export's notification preferences of a user, keyed by "kind channel" (a handful of rows). */
  async exportPreferences(userId: string, after: string | null, limit: number) {
    const key = sql<string>`${notificationPreferences.kind} || ' ' || ${notificationPreferences.channel}`;
    return this.db
      .select({
        key,
        kind: notificationPreferences.kind,
        channel: notificationPreferences.channel,
        enabled: notificationPreferences.enabled,
      })
      .from(notificationPreferences)
      .where(and(eq(notificationPreferences.userId, userId), after === null ? undefined : sql`${key} > ${after}`))
      .orderBy(key)
      .limit(limit);
  }
}
