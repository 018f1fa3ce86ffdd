/**
 * Drizzle's and() and or() are typed `SQL | undefined`: undefined when every operand is. With a first
 * operand always there, these give the same SQL, typed SQL.
 */
import { and, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';

export const allOf = (first: SQLWrapper, ...rest: (SQLWrapper | undefined)[]): SQL =>
  and(first, ...rest) ?? sql`${first}`;

export const anyOf = (first: SQLWrapper, ...rest: (SQLWrapper | undefined)[]): SQL =>
  or(first, ...rest) ?? sql`${first}`;
