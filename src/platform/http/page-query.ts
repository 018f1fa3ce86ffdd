/**
 * A list's query parameters: `cursor` asks for the page after a position, `before` for the page before
 * one, `limit` for its size. A cursor this list did not make is 400 invalidCursor.
 */
import { Type } from 'typebox';
import type { Keyset } from '../db/keyset.ts';
import { decodeCursor } from '../db/keyset-cursor.ts';
import { defaultPageLimit, type PageRequest } from '../db/page-request.ts';
import { AppError } from './error-catalogue.ts';

export interface PageQuery {
  cursor?: string;
  before?: string;
  limit?: number;
}

export function pageQuerySchema(defaultLimit = defaultPageLimit, maxLimit = 100) {
  return {
    cursor: Type.Optional(Type.String({ description: 'Opaque cursor: the page after this position' })),
    before: Type.Optional(Type.String({ description: 'Opaque cursor: the page before this position' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit, description: `1 to ${maxLimit}` }),
    ),
  };
}

function positionOf(raw: string, { name, shape }: Keyset<unknown>, parameter: 'cursor' | 'before') {
  const position = decodeCursor(raw, name, shape);
  if (position === null) throw new AppError('invalidCursor', { source: { parameter } });
  return position;
}

export function pageRequest(query: PageQuery, keyset: Keyset<unknown>, defaultLimit = defaultPageLimit): PageRequest {
  const limit = query.limit ?? defaultLimit;
  const list = keyset.name;
  if (query.cursor !== undefined && query.before !== undefined) {
    throw new AppError('invalidQueryParameter', {
      source: { parameter: 'before' },
      detail: 'cursor and before cannot be used together',
    });
  }
  if (query.cursor !== undefined) {
    return { direction: 'after', position: positionOf(query.cursor, keyset, 'cursor'), limit, list };
  }
  if (query.before !== undefined) {
    return { direction: 'before', position: positionOf(query.before, keyset, 'before'), limit, list };
  }
  return { direction: 'first', position: null, limit, list };
}
