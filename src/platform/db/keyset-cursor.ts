/** Opaque cursors: a list's name and a row's key, as base64url JSON. */
import { isLowercaseUuid } from '../ids/ids.ts';
import type { KeyPart, KeyValue } from './keyset.ts';

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
      return typeof value === 'number' && Number.isInteger(value) && value >= -2_147_483_648 && value <= 2_147_483_647
        ? value
        : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'string':
      return typeof value === 'string' ? value : undefined;
  }
}

function parsed(raw: string): unknown {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) return undefined;
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The key of a cursor made by encodeCursor for the same list and shape; null for anything else (another list's too). */
export function decodeCursor(raw: string, list: string, shape: KeyPart[]): KeyValue[] | null {
  const cursor = parsed(raw);
  if (!Array.isArray(cursor) || cursor.length !== shape.length + 1 || cursor[0] !== list) return null;
  const values: KeyValue[] = [];
  for (const [index, kind] of shape.entries()) {
    const value = decodePart(kind, cursor[index + 1]);
    if (value === undefined) return null;
    values.push(value);
  }
  return values;
}
