import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
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

  it("keeps the migrated embedded database template in the install's cache unless DATABASE_TEMPLATE_DIR says otherwise", () => {
    const project = fileURLToPath(new URL('../', import.meta.url));
    assert.equal(loadConfig({}).databaseTemplateDir, join(project, 'node_modules/.cache/travel-media-service'));
    assert.equal(loadConfig({ DATABASE_TEMPLATE_DIR: '/srv/templates' }).databaseTemplateDir, '/srv/templates');
    assert.equal(loadConfig({ DATABASE_TEMPLATE_DIR: 'templates' }).databaseTemplateDir, resolve('templates'));
    assert.equal(loadConfig({ DATABASE_TEMPLATE_DIR: '' }).databaseTemplateDir, null);
  });

  it('uses a 5-minute push digest interval in production', () => {
    assert.equal(loadConfig({ APP_ENV: 'production' }).notificationDigestIntervalMinutes, 5);
    assert.equal(
      loadConfig({ APP_ENV: 'production', NOTIFICATION_DIGEST_INTERVAL_MINUTES: '7' })
        .notificationDigestIntervalMinutes,
      7,
    );
  });

  it('checks answers against their schemas outside production unless CHECK_ANSWERS says otherwise', () => {
    assert.equal(loadConfig({}).checkAnswers, true);
    assert.equal(loadConfig({ APP_ENV: 'test' }).checkAnswers, true);
    assert.equal(loadConfig({ APP_ENV: 'production' }).checkAnswers, false);
    assert.equal(loadConfig({ APP_ENV: 'production', CHECK_ANSWERS: 'on' }).checkAnswers, true);
    assert.equal(loadConfig({ CHECK_ANSWERS: 'off' }).checkAnswers, false);
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

  it('serves no metrics unless METRICS_PORT is set, never on PORT, and delays a stop only in production', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.metrics, null);
    assert.equal(defaults.shutdownDelaySeconds, 0);
    assert.equal(loadConfig({ APP_ENV: 'production' }).shutdownDelaySeconds, 5);
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, { host: '127.0.0.1', port: 9464 });
    assert.deepEqual(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9464' }).metrics, { host: '0.0.0.0', port: 9464 });
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics, {
      host: '10.0.0.5',
      port: 9464,
    });
    assert.throws(
      () => loadConfig({ PORT: '3000', METRICS_PORT: '3000' }),
      (error: unknown) => error instanceof ConfigError && /METRICS_PORT must differ from PORT/.test(error.message),
    );
    assert.throws(
      () => loadConfig({ METRICS_PORT: 'none', SHUTDOWN_DELAY_SECONDS: '-1' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /METRICS_PORT/.test(error.message) &&
        /SHUTDOWN_DELAY_SECONDS/.test(error.message),
    );
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

  it("reads the explorer's tile server, refusing anything but an http(s) {z}/{x}/{y} template", () => {
    assert.equal(loadConfig({}).mapTileUrl, null);
    const set = loadConfig({
      MAP_TILE_URL: 'https://{s}.tile.example/{z}/{x}/{y}{r}.png',
      MAP_TILE_ATTRIBUTION: '© Example',
    });
    assert.equal(set.mapTileUrl, 'https://{s}.tile.example/{z}/{x}/{y}{r}.png');
    assert.equal(set.mapTileAttribution, '© Example');
    for (const bad of [
      'https://tile.example/{z}/{x}.png',
      'ftp://tile.example/{z}/{x}/{y}.png',
      'tiles/{z}/{x}/{y}',
      'https://maps{s}.tile.example/{z}/{x}/{y}.png',
      'https://{s}-tiles.example/{z}/{x}/{y}.png',
    ]) {
      assert.throws(
        () => loadConfig({ MAP_TILE_URL: bad }),
        (error: unknown) =>
          error instanceof ConfigError && error.problems.some((problem) => problem.startsWith('MAP_TILE_URL')),
        bad,
      );
    }
  });

  it('reads the request timeout, the media quota, CORS origins and the ETag secret', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.requestTimeoutSeconds, 120);
    assert.equal(defaults.mediaQuotaBytes, 2048 * 1024 * 1024);
    assert.deepEqual(defaults.corsOrigins, [], 'CORS is off by default');
    assert.equal(defaults.mediaEtagSecret, null);
    const set = loadConfig({
      REQUEST_TIMEOUT_SECONDS: '30',
      MEDIA_QUOTA_MB: '0',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
      MEDIA_ETAG_SECRET: 'sixteen-chars-or-more',
    });
    assert.equal(set.requestTimeoutSeconds, 30);
    assert.equal(set.mediaQuotaBytes, null, '0 means no quota');
    assert.deepEqual(set.corsOrigins, ['https://app.example.com', 'http://localhost:5173']);
    assert.equal(set.mediaEtagSecret, 'sixteen-chars-or-more');
    assert.deepEqual(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins, ['*']);
    try {
      loadConfig({
        REQUEST_TIMEOUT_SECONDS: '0',
        MEDIA_QUOTA_MB: '-1',
        CORS_ORIGINS: 'https://app.example.com/path,app.example.com',
        MEDIA_ETAG_SECRET: 'short',
      });
      assert.fail('expected a ConfigError');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      const text = error.problems.join('\n');
      for (const name of ['REQUEST_TIMEOUT_SECONDS', 'MEDIA_QUOTA_MB', 'CORS_ORIGINS', 'MEDIA_ETAG_SECRET']) {
        assert.match(text, new RegExp(name), `${name} not reported`);
      }
      assert.match(text, /https:\/\/app\.example\.com\/path/);
    }
  });

  it('reads federation: off by default, private addresses refused unless allowed, a secret of 32 characters at least', () => {
    assert.deepEqual(loadConfig({}).federation, { enabled: false, allowPrivateAddress: false, secret: null });
    const secret = 'thirty-two-characters-or-more-0123';
    assert.deepEqual(
      loadConfig({ FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESS: 'on', FEDERATION_SECRET: secret }).federation,
      { enabled: true, allowPrivateAddress: true, secret },
    );
    assert.throws(
      () => loadConfig({ FEDERATION: 'maybe', FEDERATION_SECRET: 'short' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /FEDERATION must be on or off/.test(error.problems.join('\n')) &&
        /FEDERATION_SECRET/.test(error.problems.join('\n')),
    );
  });

  it('reads the two-factor secret: unset by default (generated), 32 characters at least', () => {
    assert.equal(loadConfig({}).twoFactorSecret, null);
    const secret = 'thirty-two-characters-or-more-0123';
    assert.equal(loadConfig({ TWO_FACTOR_SECRET: secret }).twoFactorSecret, secret);
    assert.throws(
      () => loadConfig({ TWO_FACTOR_SECRET: 'too-short' }),
      (error: unknown) => error instanceof ConfigError && /TWO_FACTOR_SECRET/.test(error.problems.join('\n')),
    );
  });
});
