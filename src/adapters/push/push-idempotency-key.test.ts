import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PUSH_IDEMPOTENCY_NAMESPACE, pushIdempotencyKey, uuidV3 } from './push-idempotency-key.ts';

const DNS_NAMESPACE = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('uuidV3 (what OneSignal accepts: version 3 or 4)', () => {
  it('matches the known vector for www.example.com in the DNS namespace', () => {
    assert.equal(uuidV3('www.example.com', DNS_NAMESPACE), '5df41881-3aed-3515-88a7-2f4a814cf09e');
  });

  it('accepts an upper-case namespace and matches the vector in the Python uuid documentation', () => {
    assert.equal(uuidV3('www.example.com', DNS_NAMESPACE.toUpperCase()), '5df41881-3aed-3515-88a7-2f4a814cf09e');
    assert.equal(uuidV3('python.org', DNS_NAMESPACE), '6fa459ea-ee8a-3ca4-894e-db77e160355e');
  });

  it('rejects a namespace that is not a UUID', () => {
    assert.throws(() => uuidV3('x', 'not-a-uuid'), TypeError);
  });
});

describe('pushIdempotencyKey', () => {
  const recipient = '0123456789abcdef0123456789abcdef';
  const ids = ['9f1c2d3e-0000-4000-8000-000000000002', '1a2b3c4d-0000-4000-8000-000000000001'];

  it('is a version 3 UUID in our namespace', () => {
    const key = pushIdempotencyKey(recipient, ids);
    assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(key, uuidV3(`${recipient}:${[...ids].sort().join(',')}`, PUSH_IDEMPOTENCY_NAMESPACE));
  });

  it('does not depend on the order or case of the notification ids', () => {
    assert.equal(
      pushIdempotencyKey(recipient, ids),
      pushIdempotencyKey(
        recipient.toUpperCase(),
        [...ids].reverse().map((id) => id.toUpperCase()),
      ),
    );
  });

  it('changes with the recipient and with the set of rows', () => {
    const key = pushIdempotencyKey(recipient, ids);
    assert.notEqual(pushIdempotencyKey('f'.repeat(32), ids), key);
    assert.notEqual(pushIdempotencyKey(recipient, ids.slice(0, 1)), key);
  });
});
