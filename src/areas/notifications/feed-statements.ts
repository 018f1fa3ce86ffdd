/**
 * The feed's hot reads as prepared statements, one round trip each: a page of the list together with
 * the owner's counters (the counters row is the outer side of a LEFT JOIN LATERAL, so an empty page
 * still brings them), and the unread count. One statement per (direction, filter, page size): the
 * keyset condition and the sort order are part of the text, so every plan uses the
 * (owner_id, created_at DESC, id DESC) index, or its unread part.
 *
 * That plan is the right one for every owner and page (the index gives the order, the LIMIT stops the
 * scan), so the statements are written for PostgreSQL to keep it: the owner and the cursor behind a
 * fence (OFFSET 0), and the common page size written in. Otherwise a plan made for a heavy owner's
 * values (a million rows: the LIMIT looks cheaper than for the average owner) looked better than the
 * kept one, and PostgreSQL planned such an owner's page at every request: 0.07 to 0.11 ms of planning
 * for a 0.03 ms read (docs/benchmarks.md, hot paths).
 */

import { byKey } from '../../platform/db/prepared-reads.ts';
import { statement } from '../../platform/db/statements.ts';
import { defaultPageLimit, type PageRequest, pageDirections } from '../../platform/http/pagination.ts';
import type { NotificationRow } from './tables.ts';

/** The rows (limit + 1) of a page of the default size, written into statements of their own. */
export const writtenFeedLimit = defaultPageLimit + 1;

/** What the feed shows of a row. */
export type FeedItem = Pick<NotificationRow, 'id' | 'type' | 'data' | 'readAt' | 'createdAt'>;

/** One row per item of the page (item columns null when the page is empty), each with the counters. */
export type FeedPageRow = { [K in keyof FeedItem]: FeedItem[K] | null } & {
  total: number | null;
  unread: number | null;
};

/**
 * Parameters: $1 the owner; $2 and $3 the cursor's position (created_at, id) for the pages after or
 * before one; last, unless the page size is written, the limit. The owner and the position enter
 * through the fenced `request` row, so a plan made for the values at hand estimates what the kept
 * plan does and PostgreSQL keeps that one.
 */
function feedPage(direction: PageRequest['direction'], unreadOnly: boolean, limit: 'written' | 'bound') {
  const order = direction === 'before' ? 'ASC' : 'DESC';
  const positioned = direction !== 'first';
  const position = positioned
    ? `AND (created_at, id) ${direction === 'before' ? '>' : '<'} (request.created_at, request.id)`
    : '';
  const name = `notifications.feed.${direction}${unreadOnly ? '.unread' : ''}`;
  return statement<FeedPageRow>(
    limit === 'written' ? `${name}.${writtenFeedLimit}` : name,
    `SELECT counters.total, counters.unread, page.*
     FROM (SELECT $1::uuid AS owner_id${positioned ? ', $2::timestamptz AS created_at, $3::uuid AS id' : ''} OFFSET 0) AS request
     LEFT JOIN notification_counters AS counters ON counters.owner_id = request.owner_id
     LEFT JOIN LATERAL (
       SELECT id, type, data, read_at AS "readAt", created_at AS "createdAt"
       FROM notifications
       WHERE owner_id = request.owner_id ${unreadOnly ? 'AND read_at IS NULL' : ''} ${position}
       ORDER BY created_at ${order}, id ${order}
       LIMIT ${limit === 'written' ? writtenFeedLimit : `$${positioned ? 4 : 2}`}
     ) AS page ON true
     ORDER BY page."createdAt" ${order}, page.id ${order}`,
  );
}

const bySize = (direction: PageRequest['direction'], unreadOnly: boolean) => ({
  written: feedPage(direction, unreadOnly, 'written'),
  bound: feedPage(direction, unreadOnly, 'bound'),
});

export const feedPageStatements = byKey(pageDirections, (direction) => ({
  all: bySize(direction, false),
  unread: bySize(direction, true),
}));

export const unreadCountStatement = statement<{ unread: number }>(
  'notifications.unreadCount',
  'SELECT COALESCE((SELECT unread FROM notification_counters WHERE owner_id = $1), 0) AS unread',
);
