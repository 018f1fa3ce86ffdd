import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseUuidOrHex, toHex } from './ids.ts';

describe('toHex', () => {
  it('writes the 32 digits of a UUID, lowercase, and parseUuidOrHex reads them back', () => {
    for (let i = 0; i < 2_000; i++) {
      const id = randomUUID();
      const hex = toHex(id);
      assert.equal(hex, id.replaceAll('-', ''));
      assert.equal(parseUuidOrHex(hex), id);
    }
  });

  it('lowercases the letters of an uppercase UUID', () => {
    assert.equal(toHex('0A1B2C3D-4E5F-6A7B-8C9D-0E1F2A3B4C5D'), '0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d');
    assert.equal(toHex('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'), 'f'.repeat(32));
  });

  it('drops the dashes of any other text the same way', () => {
    assert.equal(toHex('0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d'), '0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d');
    assert.equal(toHex('AB-CD'), 'abcd');
    assert.equal(toHex('0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d-'), '0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d');
  });
});
