import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { lazyServerSecret, serverSecret, serverSecretPath } from './server-secret.ts';

describe('server secrets', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-secrets-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('generates a secret once, keeps it private in DATA_DIR, and reads the same one on the next start', () => {
    const first = serverSecret(dataDir, 'media-etag', null);
    assert.ok(first.length >= 32);
    const path = serverSecretPath(dataDir, 'media-etag');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    assert.equal(serverSecret(dataDir, 'media-etag', null), first, 'stable across restarts');
    assert.notEqual(serverSecret(dataDir, 'another', null), first, 'one secret per use');
  });

  it('uses the configured value when there is one', () => {
    assert.equal(serverSecret(dataDir, 'media-etag', 'from-the-environment-0123'), 'from-the-environment-0123');
  });

  it('makes a lazy secret only when it is first asked for', () => {
    const lazy = lazyServerSecret(dataDir, 'lazy', null);
    assert.equal(existsSync(serverSecretPath(dataDir, 'lazy')), false, 'nothing written before use');
    const value = lazy();
    assert.equal(existsSync(serverSecretPath(dataDir, 'lazy')), true);
    assert.equal(lazy(), value);
  });
});
