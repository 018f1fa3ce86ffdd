import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameBasedUuid } from './name-based-uuid.ts';

const DNS_NAMESPACE = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('nameBasedUuid', () => {
  it('gives the published version 3 and version 5 ids of python.org in the DNS namespace', () => {
    assert.equal(nameBasedUuid(3, 'python.org', DNS_NAMESPACE), '6fa459ea-ee8a-3ca4-894e-db77e160355e');
    assert.equal(nameBasedUuid(5, 'python.org', DNS_NAMESPACE), '886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });

  it('refuses a namespace that is not a UUID', () => {
    assert.throws(() => nameBasedUuid(5, 'x', 'not-a-uuid'), TypeError);
  });
});
