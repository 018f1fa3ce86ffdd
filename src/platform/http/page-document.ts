/**
 * The JSON:API document of one page of a keyset list, as CollectionSchema describes it: the page's
 * rows presented in the list's order, `meta.limit` and what else the route puts in meta, and the
 * page's links (page-links.ts).
 *
 *   handler: async ({ viewer, page, links, locale }) =>
 *     listDocument(await topics.listOfUser(viewer.userId, page), { page, links }, userTopicsKeyset,
 *       (row) => presentTopic(row, locale), { maxTopics: maxTopicsPerUser }),
 */
import type { Keyset } from '../db/keyset.ts';
import { type Page, pageOf } from '../db/page.ts';
import type { PagedContext } from './route.ts';

/** The document of the page made of the limit + 1 rows fetched for the request (pageOf). */
export function listDocument<T, R, M extends object = Record<never, never>>(
  rows: T[],
  context: PagedContext,
  keyset: Pick<Keyset<T>, 'keyOf'>,
  present: (row: T) => R,
  meta?: M,
) {
  return pageDocument(pageOf(rows, context.page, keyset), context, present, meta);
}

/** The document of a page the service made already (one it returns with a total, say). */
export function pageDocument<T, R, M extends object = Record<never, never>>(
  result: Page<T>,
  { page, links }: PagedContext,
  present: (row: T) => R,
  meta?: M,
) {
  return {
    data: result.items.map((row) => present(row)),
    meta: { limit: page.limit, ...meta },
    links: links(result),
  };
}
