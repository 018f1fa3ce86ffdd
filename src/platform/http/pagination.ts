/**
 * Keyset pagination shared by every list: opaque cursors over an ordered key (e.g. createdAt, id),
 * newest first. `cursor` asks for the page after a position, `before` for the page before one.
 * Each page fetches limit + 1 rows to know whether another page exists in that direction.
 */
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from './error-catalogue.ts';
import { isLowercaseUuid } from './ids.ts';
import type { Links } from './jsonapi.ts';

/** A cursor's parts: 'int' is a PostgreSQL integer (int4), 'number' a double. */
export type KeyPart = 'timestamp' | 'uuid' | 'int' | 'number' | 'string';
export type KeyValue = Date | string | number;

export interface PageQuery {
  cursor?: string;
  before?: string;
  limit?: number;
}

/**
 * A list's key, defined once next to its query: the columns it orders by (newest first), the kinds of
 * their values in a cursor, and how to read a row's key. `name` goes into every cursor, so a cursor
 * made for one list is refused by another (400 invalidCursor).
 */
export interface Keyset<Row> {
  name: string;
  shape: KeyPart[];
  columns: (AnyColumn | SQL)[];
  keyOf(row: Row): KeyValue[];
  /** 'desc' (default): largest key first, as newest-first lists; 'asc': smallest first (nearest first). */
  order?: 'asc' | 'desc';
}

export const defineKeyset = <Row>(keyset: Keyset<Row>): Keyset<Row> => keyset;

/** The most common list: rows with their own createdAt and id, newest first. */
export const newestFirst = <Row extends { createdAt: Date; id: string }>(
  name: string,
  table: { createdAt: AnyColumn; id: AnyColumn },
): Keyset<Row> =>
  defineKeyset<Row>({
    name,
    shape: ['timestamp', 'uuid'],
    columns: [table.createdAt, table.id],
    keyOf: (row) => [row.createdAt, row.id],
  });

export const pageDirections = ['first', 'after', 'before'] as const;

export interface PageRequest {
  direction: (typeof pageDirections)[number];
  position: KeyValue[] | null;
  limit: number;
  /** The list's name, written into the cursors of its pages. */
  list: string;
}

/** The page size of a list that names none. */
export const defaultPageLimit = 20;

export function pageQuerySchema(defaultLimit = defaultPageLimit, maxLimit = 100) {
  return {
    cursor: Type.Optional(Type.String({ description: 'Opaque cursor: the page after this position' })),
    before: Type.Optional(Type.String({ description: 'Opaque cursor: the page before this position' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit, description: `1 to ${maxLimit}` }),
    ),
  };
}

export function encodeCursor(list: string, values: KeyValue[]): string {
  const plain = values.map((value) => (value instanceof Date ? value.toISOString() : value));
  return Buffer.from(JSON.stringify([list, ...plain])).toString('base64url');
}

function decodePart(kind: KeyPart, value: unknown): KeyValue | undefined {
  switch (kind) {
    case 'timestamp': {
      if (typeof value !== 'string') return undefined;
      // Exactly as encodeCursor wrote it: no other date form, and no year the database cannot hold.
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) return undefined;
      const year = date.getUTCFullYear();
      return date.toISOString() === value && year >= 1 && year <= 9999 ? date : undefined;
    }
    case 'uuid':
      return typeof value === 'string' && isLowercaseUuid(value) ? value : undefined;
    case 'int':
      // The columns behind an 'int' part are PostgreSQL integers: a value they cannot hold is a bad cursor.
      return Number.isInteger(value) && (value as number) >= -2_147_483_648 && (value as number) <= 2_147_483_647
        ? (value as number)
        : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'string':
      return typeof value === 'string' ? value : undefined;
  }
}

/** Decodes a cursor made by encodeCursor for the same list; anything else (another list's too) is a 400. */
export function decodeCursor(raw: string, list: string, shape: KeyPart[], parameter: string): KeyValue[] {
  const invalid = () => new AppError('invalidCursor', { source: { parameter } });
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw invalid();
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== shape.length + 1 || parsed[0] !== list) throw invalid();
  const values = parsed.slice(1);
  return shape.map((kind, index) => {
    const value = decodePart(kind, values[index]);
    if (value === undefined) throw invalid();
    return value;
  });
}

export function pageRequest(query: PageQuery, keyset: Keyset<unknown>, defaultLimit = defaultPageLimit): PageRequest {
  const limit = query.limit ?? defaultLimit;
  const { name: list, shape } = keyset;
  if (query.cursor !== undefined && query.before !== undefined) {
    throw new AppError('invalidQueryParameter', {
      source: { parameter: 'before' },
      detail: 'cursor and before cannot be used together',
    });
  }
  if (query.cursor !== undefined) {
    return { direction: 'after', position: decodeCursor(query.cursor, list, shape, 'cursor'), limit, list };
  }
  if (query.before !== undefined) {
    return { direction: 'before', position: decodeCursor(query.before, list, shape, 'before'), limit, list };
  }
  return { direction: 'first', position: null, limit, list };
}

const parameterOf = (value: KeyValue) => (value instanceof Date ? value.toISOString() : value);

/** The WHERE fragment and ORDER BY of one direction, the position given as SQL values or placeholders. */
function keysetClause(
  { columns, order = 'desc' }: Pick<Keyset<unknown>, 'columns' | 'order'>,
  direction: PageRequest['direction'],
  position: SQL[] | null,
): { where: SQL | undefined; orderBy: SQL[] } {
  // A 'before' page reads the list backwards (pageOf turns it round).
  const ascending = (direction === 'before') !== (order === 'asc');
  const orderBy = columns.map((column) => (ascending ? sql`${column} ASC` : sql`${column} DESC`));
  if (position === null) return { where: undefined, orderBy };
  const left = sql.join(columns, sql`, `);
  const right = sql.join(position, sql`, `);
  const where = ascending ? sql`(${left}) > (${right})` : sql`(${left}) < (${right})`;
  return { where, orderBy };
}

/**
 * The WHERE fragment and ORDER BY of a page. Columns and values line up with the shape. Rows come
 * back in the list's order whatever the direction (the 'before' page is fetched the other way and
 * reversed by pageOf).
 */
export function keyset(
  list: Pick<Keyset<unknown>, 'columns' | 'order'>,
  request: PageRequest,
): { where: SQL | undefined; orderBy: SQL[] } {
  const position = request.position?.map((value) => sql`${parameterOf(value)}`) ?? null;
  return keysetClause(list, request.direction, position);
}

/** The same for a prepared statement: the position as placeholders position0, position1, … (see positionValues). */
export function keysetTemplate(
  list: Pick<Keyset<unknown>, 'columns' | 'order'>,
  direction: PageRequest['direction'],
): { where: SQL | undefined; orderBy: SQL[] } {
  const position =
    direction === 'first' ? null : list.columns.map((_, index) => sql`${sql.placeholder(`position${index}`)}`);
  return keysetClause(list, direction, position);
}

/** The values of keysetTemplate's placeholders for a page request. */
export function positionValues(request: PageRequest): Record<string, KeyValue> {
  return Object.fromEntries((request.position ?? []).map((value, index) => [`position${index}`, parameterOf(value)]));
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  prevCursor: string | null;
}

/** Turns limit + 1 fetched rows into one page (newest first) with the cursors of its neighbours. */
export function pageOf<T>(rows: T[], request: PageRequest, { keyOf }: Pick<Keyset<T>, 'keyOf'>): Page<T> {
  const hasMore = rows.length > request.limit;
  const items = rows.slice(0, request.limit);
  if (request.direction === 'before') items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  if (first === undefined || last === undefined) return { items, nextCursor: null, prevCursor: null };
  const moreAfter = request.direction === 'before' ? true : hasMore;
  const moreBefore = request.direction === 'first' ? false : request.direction === 'after' ? true : hasMore;
  return {
    items,
    nextCursor: moreAfter ? encodeCursor(request.list, keyOf(last)) : null,
    prevCursor: moreBefore ? encodeCursor(request.list, keyOf(first)) : null,
  };
}

/**
 * Root links for a page, absolute under PUBLIC_URL (its path prefix included) so a client can follow
 * them as they are: self as asked, first without a position, prev/next with the cursors.
 */
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
