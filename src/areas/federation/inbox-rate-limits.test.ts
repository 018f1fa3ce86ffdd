import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { senderDomainOf } from './inbox-rate-limits.ts';

describe('the sending domain of a delivery', () => {
  it('is the host of the key id, as Mastodon (draft-cavage) and RFC 9421 signers name it', () => {
    const cavage =
      'keyId="https://Mastodon.Example/users/ana#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="abc"';
    assert.equal(senderDomainOf({ method: 'POST', headers: { signature: cavage } }), 'mastodon.example');
    const rfc9421 =
      'sig1=("@method" "@target-uri" "content-digest");created=1700000000;keyid="https://pixelfed.example:8443/users/bo#main-key"';
    assert.equal(senderDomainOf({ method: 'POST', headers: { 'signature-input': rfc9421 } }), 'pixelfed.example:8443');
  });

  it('is none for a read, an unsigned delivery or a key id that is not a URL', () => {
    assert.equal(senderDomainOf({ method: 'GET', headers: { signature: 'keyId="https://a.example/k"' } }), null);
    assert.equal(senderDomainOf({ method: 'POST', headers: {} }), null);
    assert.equal(senderDomainOf({ method: 'POST', headers: { signature: 'keyId="not a url"' } }), null);
  });
});
