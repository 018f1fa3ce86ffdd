import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lsnBytes } from './replica.ts';

describe('replica: WAL positions', () => {
  it('reads a position as bytes, ordered as PostgreSQL orders them', () => {
    assert.equal(lsnBytes('0/0'), 0n);
    assert.equal(lsnBytes('0/3000000'), 0x3000000n);
    assert.equal(lsnBytes('16/B374D848'), (0x16n << 32n) + 0xb374d848n);
    assert.ok(lsnBytes('1/0') > lsnBytes('0/FFFFFFFF'));
  });
});
