import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeCursor, encodeCursor } from './keyset-cursor.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('cursors', () => {
  it('round-trip timestamps and ids exactly', () => {
    const cursor = encodeCursor('probe', [at(5), uuid(7)]);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeCursor(cursor, 'probe', ['timestamp', 'uuid']), [at(5), uuid(7)]);
  });

  it('refuse anything this service did not make for the list', () => {
    const bad = [
      '',
      '!!!',
      'e30',
      encodeCursor('probe', [at(1)]),
      encodeCursor('probe', ['nope', uuid(1)]),
      encodeCursor('probe', [at(1), 'x']),
      Buffer.from('{"a":1}').toString('base64url'),
      // well-formed, but not a timestamp this service writes (nor one PostgreSQL can hold)
      encodeCursor('probe', ['0000-01-01T00:00:00.000Z', uuid(1)]),
      encodeCursor('probe', ['-000001-01-01T00:00:00.000Z', uuid(1)]),
      encodeCursor('probe', ['+275760-09-13T00:00:00.000Z', uuid(1)]),
      encodeCursor('probe', ['2026-01-01', uuid(1)]),
      // a cursor of another list, with a key of the same shape
      encodeCursor('other-list', [at(1), uuid(1)]),
    ];
    for (const raw of bad) assert.equal(decodeCursor(raw, 'probe', ['timestamp', 'uuid']), null, raw);
  });

  it('refuse an int part a PostgreSQL integer cannot hold', () => {
    assert.deepEqual(decodeCursor(encodeCursor('n', [2_147_483_647]), 'n', ['int']), [2_147_483_647]);
    for (const value of [2_147_483_648, 1.5, '1']) {
      assert.equal(decodeCursor(encodeCursor('n', [value]), 'n', ['int']), null, String(value));
    }
  });
});
