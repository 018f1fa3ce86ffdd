/** A page's CSP nonce: 16 random bytes in base64, never the same twice, across the pool's refills. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newNonce } from './csp.ts';

describe('the CSP nonce', () => {
  it('is 16 bytes in base64 and never handed out twice, across several draws of the pool', () => {
    const nonces = Array.from({ length: 1000 }, newNonce);
    assert.equal(new Set(nonces).size, nonces.length);
    for (const nonce of nonces) {
      assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
      assert.equal(Buffer.from(nonce, 'base64').length, 16);
    }
    // Random bytes: about half the bits set, not a counter or a constant.
    const bits = nonces
      .flatMap((nonce) => [...Buffer.from(nonce, 'base64')])
      .reduce((sum, byte) => {
        let set = 0;
        for (let b = byte; b > 0; b >>= 1) set += b & 1;
        return sum + set;
      }, 0);
    const share = bits / (nonces.length * 128);
    assert.ok(share > 0.48 && share < 0.52, `${share} of the bits set`);
  });
});
