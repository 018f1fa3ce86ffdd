/**
 * The feed's hot reads as prepared statements, one round trip each: a page of the list together with
 * the owner's counters (the counters row is the outer side of a LEFT JOIN LATERAL, so an empty page
 * still brings them), and the unread count. One statement per (direction, filter): the keyset
 * condition and the sort order are part of the text, so the plan reads the
 * (owner_id, created_at DESC, id DESC) index, or its unread part, in order and stops at the page.
 *
 * That plan is the right one for every owner and page, and the statements are written so that it is
 * the one PostgreSQL keeps: the owner, the page size and the cursor enter through a fenced row
 * (`OFFSET 0`), so that no plan sees their values. A plan that saw the owner estimated a heavy owner's
 * page cheaper than the kept plan and was made again at every request (0.07 to 0.11 ms of planning for
 * a 0.03 ms read); a plan that saw the page size (a LIMIT written in, or bound) could find collecting
 * all of an owner's rows and sorting them as cheap as the index when the average owner has about a
 * page of rows, and then kept that: 4 ms for an owner with 10,000 (docs/benchmarks.md, hot paths).
 * A LIMIT it cannot see is counted as a tenth of the rows, for which the index in order wins in practice
 * (it reads a tenth of its cost; a sort pays for every row).
 */

import { type PageRequest, pageDirections } from '../../platform/db/page-request.ts';
import { byKey } from '../../platform/db/prepared-reads.ts';
import { statement } from '../../platform/db/statements.ts';
import { notHiddenByFiltersText, notificationFilterText } from '../filters/read-model.ts';
import type { NotificationRow } from './tables.ts';

/** What the feed shows of a row. */
export type FeedItem = Pick<NotificationRow, 'id' | 'type' | 'data' | 'readAt' | 'createdAt'>;

/** One row per item of the page (item columns null when the page is empty), each with the counters. */
export type FeedPageRow = { [K in keyof FeedItem]: FeedItem[K] | null } & {
  total: number | null;
  unread: number | null;
};

/**
 * Parameters: $1 the owner, $2 the rows to read (limit + 1), $3 and $4 the cursor's (created_at, id), then
 * the patterns of the owner's hide filters (filters' read model: [] hides nothing).
 */
function feedPage(direction: PageRequest['direction'], unreadOnly: boolean) {
  const order = direction === 'before' ? 'ASC' : 'DESC';
  const positioned = direction !== 'first';
  const position = positioned
    ? `AND (created_at, id) ${direction === 'before' ? '>' : '<'} (request.created_at, request.id)`
    : '';
  const hiddenBy = `$${positioned ? 5 : 3}::text[]`;
  return statement<FeedPageRow>(
    `notifications.feed.${direction}${unreadOnly ? '.unread' : ''}`,
    `SELECT counters.total, counters.unread, page.*
     FROM (
       SELECT $1::uuid AS owner_id, $2::int AS page_rows${positioned ? ', $3::timestamptz AS created_at, $4::uuid AS id' : ''},
         ${hiddenBy} AS hidden_by
       OFFSET 0
     ) AS request
     LEFT JOIN notification_counters AS counters ON counters.owner_id = request.owner_id
     LEFT JOIN LATERAL (
       SELECT id, type, data, read_at AS "readAt", created_at AS "createdAt"
       FROM notifications
       WHERE owner_id = request.owner_id ${unreadOnly ? 'AND read_at IS NULL' : ''} ${position}
         AND ${notHiddenByFiltersText('request.hidden_by', notificationFilterText('data'))}
       ORDER BY created_at ${order}, id ${order}
       LIMIT request.page_rows
     ) AS page ON true
     ORDER BY page."createdAt" ${order}, page.id ${order}`,
  );
}

export const feedPageStatements = byKey(pageDirections, (direction) => ({
  all: feedPage(direction, false),
  unread: feedPage(direction, true),
}));

/** The values of a page's statement, in its parameters' order. */
export function feedPageValues(
  ownerId: string,
  page: Pick<PageRequest, 'limit' | 'position'>,
  hiddenBy: string[] = [],
): unknown[] {
  const rows = page.limit + 1;
  return page.position === null
    ? [ownerId, rows, hiddenBy]
    : [ownerId, rows, (page.position[0] as Date).toISOString(), page.position[1], hiddenBy];
}

export const unreadCountStatement = statement<{ unread: number }>(
  'notifications.unreadCount',
  'SELECT COALESCE((SELECT unread FROM notification_counters WHERE owner_id = $1), 0) AS unread',
);
