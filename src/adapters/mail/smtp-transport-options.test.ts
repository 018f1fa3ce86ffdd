import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopbackHost, smtpTransportOptions } from './smtp-transport-options.ts';

describe('smtpTransportOptions', () => {
  it('does not require STARTTLS for plain SMTP on loopback', () => {
    const options = smtpTransportOptions('smtp://127.0.0.1:2525');
    assert.equal(options.host, '127.0.0.1');
    assert.equal(options.port, 2525);
    assert.equal(options.secure, false);
    assert.equal(options.requireTLS, undefined);
  });

  it('requires STARTTLS for plain SMTP to another host', () => {
    const options = smtpTransportOptions('smtp://mail.example.com:587');
    assert.equal(options.secure, false);
    assert.equal(options.requireTLS, true);
  });

  it('uses implicit TLS for smtps and decodes credentials', () => {
    const options = smtpTransportOptions('smtps://user%40example.com:p%3Ass@mail.example.com');
    assert.equal(options.secure, true);
    assert.deepEqual(options.auth, { user: 'user@example.com', pass: 'p:ss' });
  });

  it('lets the URL override the defaults', () => {
    const options = smtpTransportOptions('smtp://relay.internal:25?requireTLS=false&connectionTimeout=500');
    assert.equal(options.requireTLS, false);
    assert.equal(options.connectionTimeout, 500);
    assert.equal(options.greetingTimeout, 10_000);
  });

  it('refuses other schemes', () => {
    assert.throws(() => smtpTransportOptions('http://mail.example.com'), /smtp:\/\/ or smtps:\/\//);
  });
});

describe('isLoopbackHost', () => {
  it('knows the loopback names and addresses', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['mail.example.com', '10.0.0.1', '128.0.0.1']) assert.equal(isLoopbackHost(host), false, host);
  });
});
