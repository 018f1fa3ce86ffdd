import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex } from './content-hash.ts';

describe('sha256Hex', () => {
  it('matches the published SHA-256 test vectors', () => {
    assert.equal(sha256Hex(Buffer.from('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha256Hex(Buffer.alloc(0)), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
