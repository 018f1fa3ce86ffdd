/**
 * The feed's hot reads as prepared statements, one round trip each: a page of the list together with
 * the owner's counters (the counters row is the outer side of a LEFT JOIN LATERAL, so an empty page
 * still brings them), and the unread count. One statement per (direction, filter): the keyset
 * condition and the sort order are part of the text, so every plan uses the
 * (owner_id, created_at DESC, id DESC) index.
 */

import { byKey } from '../../platform/db/prepared-reads.ts';
import { statement } from '../../platform/db/statements.ts';
import { type PageRequest, pageDirections } from '../../platform/http/pagination.ts';
import type { NotificationRow } from './tables.ts';

/** What the feed shows of a row. */
export type FeedItem = Pick<NotificationRow, 'id' | 'type' | 'data' | 'readAt' | 'createdAt'>;

/** One row per item of the page (item columns null when the page is empty), each with the counters. */
export type FeedPageRow = { [K in keyof FeedItem]: FeedItem[K] | null } & {
  total: number | null;
  unread: number | null;
};

function feedPage(direction: PageRequest['direction'], unreadOnly: boolean) {
  const order = direction === 'before' ? 'ASC' : 'DESC';
  const position =
    direction === 'first'
      ? ''
      : `AND (created_at, id) ${direction === 'before' ? '>' : '<'} ($3::timestamptz, $4::uuid)`;
  return statement<FeedPageRow>(
    `notifications.feed.${direction}${unreadOnly ? '.unread' : ''}`,
    `SELECT counters.total, counters.unread, page.*
     FROM (SELECT $1::uuid AS owner_id) AS owner
     LEFT JOIN notification_counters AS counters ON counters.owner_id = owner.owner_id
     LEFT JOIN LATERAL (
       SELECT id, type, data, read_at AS "readAt", created_at AS "createdAt"
       FROM notifications
       WHERE owner_id = owner.owner_id ${unreadOnly ? 'AND read_at IS NULL' : ''} ${position}
       ORDER BY created_at ${order}, id ${order}
       LIMIT $2
     ) AS page ON true
     ORDER BY page."createdAt" ${order}, page.id ${order}`,
  );
}

export const feedPageStatements = byKey(pageDirections, (direction) => ({
  all: feedPage(direction, false),
  unread: feedPage(direction, true),
}));

export const unreadCountStatement = statement<{ unread: number }>(
  'notifications.unreadCount',
  'SELECT COALESCE((SELECT unread FROM notification_counters WHERE owner_id = $1), 0) AS unread',
);
