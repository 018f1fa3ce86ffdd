import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults with an empty environment', () => {
    const config = loadConfig({});
    assert.equal(config.appEnv, 'development');
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 3000);
    assert.equal(config.databaseUrl, null);
    assert.equal(config.adminApiToken, null);
    assert.equal(config.rateLimits, true);
    assert.equal(config.notificationDigestIntervalMinutes, 2);
    assert.equal(config.notificationDedupWindowMinutes, 5);
    assert.equal(config.push.provider, 'log');
    assert.equal(config.s3, null);
    assert.ok(config.dataDir.endsWith('/var'));
  });

  it('uses a 5-minute push digest interval in production', () => {
    assert.equal(loadConfig({ APP_ENV: 'production' }).notificationDigestIntervalMinutes, 5);
    assert.equal(
      loadConfig({ APP_ENV: 'production', NOTIFICATION_DIGEST_INTERVAL_MINUTES: '7' })
        .notificationDigestIntervalMinutes,
      7,
    );
  });

  it('reports every bad variable at once, naming each and what it expects', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        APP_ENV: 'staging',
        DATABASE_URL: 'mysql://x',
        RATE_LIMITS: 'maybe',
        PUSH_PROVIDER: 'onesignal',
        ADMIN_API_TOKEN: 'short',
      });
      assert.fail('expected a ConfigError');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      const text = error.problems.join('\n');
      for (const name of [
        'PORT',
        'APP_ENV',
        'DATABASE_URL',
        'RATE_LIMITS',
        'ONESIGNAL_APP_ID',
        'ONESIGNAL_API_KEY',
        'ADMIN_API_TOKEN',
      ]) {
        assert.match(text, new RegExp(name), `${name} not reported`);
      }
    }
  });

  it('reads S3 settings only when a bucket is set, and requires its keys', () => {
    assert.throws(
      () => loadConfig({ S3_BUCKET: 'media' }),
      /S3_ACCESS_KEY_ID.*S3_SECRET_ACCESS_KEY|S3_SECRET_ACCESS_KEY/s,
    );
    const config = loadConfig({
      S3_BUCKET: 'media',
      S3_ACCESS_KEY_ID: 'a',
      S3_SECRET_ACCESS_KEY: 'b',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
    });
    assert.deepEqual(config.s3, {
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'media',
      accessKeyId: 'a',
      secretAccessKey: 'b',
      forcePathStyle: true,
    });
  });
});
