import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertValidStorageKey, assertValidStoragePrefix, InvalidStorageKeyError } from './storage-key.ts';

describe('storage keys', () => {
  it('accepts the keys the application builds', () => {
    for (const key of ['originals/ab/cd/0123456789abcdef.jpg', 'variants/0123abcd/small.webp', 'a', 'x_y-z.1/2']) {
      assert.doesNotThrow(() => assertValidStorageKey(key), key);
    }
  });

  it('refuses, with a reason, keys that could escape the root or differ between backends', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['../a', /"\.\."/],
      ['a/../../b', /"\.\."/],
      ['a/./b', /"\.\."/],
      ['/etc/passwd', /relative/],
      ['C:/windows', /relative/],
      ['a\\..\\b', /backslash/],
      ['a//b', /empty path segment/],
      ['a/b/', /empty path segment/],
      ['a/.hidden', /dot/],
      ['a/b c.jpg', /only letters/],
      ['a/b\u0000.jpg', /only letters/],
      ['a/é.jpg', /only letters/],
      ['k'.repeat(1025), /longer than 1024/],
    ];
    for (const [key, reason] of cases) {
      assert.throws(
        () => assertValidStorageKey(key),
        (error: unknown) => error instanceof InvalidStorageKeyError && error.key === key && reason.test(error.message),
        JSON.stringify(key),
      );
    }
  });

  it('lets a listing prefix be empty or end in a slash or part of a segment, but nothing unsafe', () => {
    for (const prefix of ['', 'originals/', 'originals/a', 'originals']) {
      assert.doesNotThrow(() => assertValidStoragePrefix(prefix), prefix);
    }
    for (const prefix of ['/', '../', 'a//', 'a/../', 'a\\', '.']) {
      assert.throws(() => assertValidStoragePrefix(prefix), InvalidStorageKeyError, prefix);
    }
  });
});
