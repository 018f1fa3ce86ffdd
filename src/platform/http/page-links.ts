/**
 * Root links for a page, absolute under PUBLIC_URL (its path prefix included) so a client can follow
 * them as they are: self as asked, first without a position, prev/next with the cursors.
 */
import type { FastifyRequest } from 'fastify';
import type { Page } from '../db/page.ts';
import type { Links } from './jsonapi.ts';

export function pageLinks(request: FastifyRequest, page: Page<unknown>): Links {
  const base = request.server.publicUrl;
  // Plain string work: parsing and re-serializing URL objects cost a quarter of a list request.
  const queryAt = request.url.indexOf('?');
  const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : request.url.slice(queryAt + 1);
  const kept = query.split('&').filter((pair) => {
    const name = pair.split('=', 1)[0];
    return name !== '' && name !== 'cursor' && name !== 'before';
  });
  const withPosition = (position: string | null) => {
    const pairs = position === null ? kept : [...kept, position];
    return pairs.length === 0 ? `${base}${path}` : `${base}${path}?${pairs.join('&')}`;
  };
  return {
    self: `${base}${request.url}`,
    first: withPosition(null),
    prev: page.prevCursor === null ? null : withPosition(`before=${page.prevCursor}`),
    next: page.nextCursor === null ? null : withPosition(`cursor=${page.nextCursor}`),
  };
}
