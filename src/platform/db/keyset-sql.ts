/**
 * The WHERE fragment and ORDER BY of a keyset page. Columns and values line up with the keyset's
 * shape. A 'before' page is read backwards (in the other order) and turned round by pageOf (page.ts).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Keyset, KeyValue } from './keyset.ts';
import type { PageRequest } from './page-request.ts';

type KeysetOrder = Pick<Keyset<unknown>, 'columns' | 'order'>;
interface KeysetClause {
  where: SQL | undefined;
  orderBy: SQL[];
}

const parameterOf = (value: KeyValue) => (value instanceof Date ? value.toISOString() : value);

/** One direction's clause, the position given as SQL values or placeholders. */
function keysetClause(
  { columns, order = 'desc' }: KeysetOrder,
  direction: PageRequest['direction'],
  position: SQL[] | null,
): KeysetClause {
  const ascending = (direction === 'before') !== (order === 'asc');
  const orderBy = columns.map((column) => (ascending ? sql`${column} ASC` : sql`${column} DESC`));
  if (position === null) return { where: undefined, orderBy };
  const left = sql.join(columns, sql`, `);
  const right = sql.join(position, sql`, `);
  const where = ascending ? sql`(${left}) > (${right})` : sql`(${left}) < (${right})`;
  return { where, orderBy };
}

/** The clause of a page request, its position as values. */
export function keyset(list: KeysetOrder, request: PageRequest): KeysetClause {
  const position = request.position?.map((value) => sql`${parameterOf(value)}`) ?? null;
  return keysetClause(list, request.direction, position);
}

/** The same for a prepared statement: the position as placeholders position0, position1, … (see positionValues). */
export function keysetTemplate(list: KeysetOrder, direction: PageRequest['direction']): KeysetClause {
  const position =
    direction === 'first' ? null : list.columns.map((_, index) => sql`${sql.placeholder(`position${index}`)}`);
  return keysetClause(list, direction, position);
}

/** The values of keysetTemplate's placeholders for a page request. */
export function positionValues(request: PageRequest): Record<string, KeyValue> {
  return Object.fromEntries((request.position ?? []).map((value, index) => [`position${index}`, parameterOf(value)]));
}
