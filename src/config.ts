/**
 * Environment -> typed, validated configuration. Every bad variable is collected and reported in one
 * message, and start-up is refused (see ConfigError).
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isUncompressedP256Point, isVapidPrivateKey } from './adapters/push/web-push-keys.ts';

export type AppEnv = 'development' | 'production' | 'test';

export interface FederationConfig {
  /** FEDERATION=on: serve WebFinger, NodeInfo and the actors, accept and deliver activities. */
  enabled: boolean;
  /**
   * FEDERATION_ALLOW_PRIVATE_ADDRESS=on: fetch and deliver to loopback and private addresses over plain
   * http (tests, closed networks); off, Fedify refuses them (its SSRF guard).
   */
  allowPrivateAddress: boolean;
  /** What the actors' private keys and the queued activities are encrypted with; null: generated in DATA_DIR/secrets. */
  secret: string | null;
}

export interface Config {
  appEnv: AppEnv;
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /** A direct URL for migrations when DATABASE_URL goes through a pooler (PgBouncer in transaction mode). */
  databaseMigrationUrl: string | null;
  /** Connections this instance keeps to PostgreSQL. */
  databasePoolSize: number;
  /** A streaming standby for the hot public reads (PostgreSQL only): docs/operations.md, Read replicas. */
  databaseReplicaUrl: string | null;
  /** The replica is left out while its measured lag exceeds this; also the read-your-writes window. */
  databaseReplicaMaxLagSeconds: number;
  /**
   * Where `npm ci` keeps the migrated embedded database that a new DATA_DIR/db is copied from
   * (DATABASE_TEMPLATE_DIR; default node_modules/.cache/travel-media-service; empty: none, a new
   * database is made and migrated in place). PGlite only.
   */
  databaseTemplateDir: string | null;
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  adminApiToken: string | null;
  rateLimits: boolean;
  /**
   * Each answer is also written by its schema's serializer and must read the same (CHECK_ANSWERS; on
   * unless APP_ENV=production): src/platform/http/serialization.ts.
   */
  checkAnswers: boolean;
  /** Trust X-Forwarded-* from this many proxy hops (or a list of addresses), for client IPs. */
  trustProxy: boolean | number | string;
  logLevel: string;
  sessionTtlDays: number;
  /** Days between a confirmed account deletion and its erasure (signing in meanwhile cancels it). */
  accountDeletionGraceDays: number;
  /** How long an instance may answer from its memory for a session; 0 reads every session from the database. */
  sessionCacheSeconds: number;
  notificationDigestIntervalMinutes: number;
  notificationDedupWindowMinutes: number;
  /** Image renders at once (MEDIA_RENDER_CONCURRENCY); the rest queue (src/areas/media/render-queue.ts). */
  mediaRenderConcurrency: number;
  /** How long a request for a variant not rendered yet waits for it before 503 variantNotReady. */
  mediaRenderWaitMs: number;
  /** Renders one IP may ask for a minute (variants not rendered yet; stored files are not counted). */
  mediaRenderRateLimit: number;
  /** A request (headers and body) must arrive within this time, else 408 and the connection closes. */
  requestTimeoutSeconds: number;
  /** Where GET /metrics is served, on a port of its own (METRICS_PORT, METRICS_HOST); null: not served. */
  metrics: { host: string; port: number } | null;
  /**
   * At a graceful stop, how long the instance keeps serving with /health/ready at 503 before it stops
   * accepting connections, so load balancers take it out of rotation first.
   */
  shutdownDelaySeconds: number;
  /** Bytes of originals one user may keep (posts, avatar and cover together); null: no limit. */
  mediaQuotaBytes: number | null;
  /** Browser origins allowed to call the API cross-origin (CORS); empty: CORS off. `*` allows any. */
  corsOrigins: string[];
  /** Key of the media ETags (HMAC); null: generated once and kept in DATA_DIR/secrets. */
  mediaEtagSecret: string | null;
  /**
   * What the two-factor keys are derived from (TOTP secrets' encryption, recovery codes' hashes, sign-in
   * tickets' signatures); null: generated once and kept in DATA_DIR/secrets.
   */
  twoFactorSecret: string | null;
  /** ActivityPub federation (docs/operations.md, Federation): off by default; Fedify is loaded only when on. */
  federation: FederationConfig;
  /**
   * The explorer's base layer: a tile server URL template (`https://tile.example/{z}/{x}/{y}.png`,
   * optional `{s}` and `{r}`), or null for the offline map drawn from Natural Earth shapes.
   */
  mapTileUrl: string | null;
  /** The tile server's required attribution (text), shown on the map with MAP_TILE_URL. */
  mapTileAttribution: string | null;
  push: PushSettings;
  /** Sign-in with an identity provider (src/areas/identities); a provider without a client id is off. */
  identityProviders: IdentityProvidersConfig;
  s3: {
    endpoint: string | null;
    region: string;
    bucket: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
  } | null;
}

/** An OpenID Connect provider whose ID tokens are JWTs checked against its JWKS (Google, Apple). */
export interface OidcProviderConfig {
  /** The accepted `aud` values: our client ids (web, iOS, Android...). */
  clientIds: string[];
  /** The accepted `iss` values. */
  issuers: string[];
  jwksUrl: string;
}

export interface IdentityProvidersConfig {
  /** The bound of every call to a provider (JWKS, Graph API); past it the sign-in answers 502. */
  timeoutMs: number;
  google: OidcProviderConfig | null;
  apple: OidcProviderConfig | null;
  facebook: { appId: string; appSecret: string; graphUrl: string } | null;
}

/**
 * PUSH_PROVIDER names the channels: `log` or `onesignal` (the vendor channel, targeting external_id),
 * and/or `webpush` (browsers' own push services, VAPID): `onesignal,webpush` sends both.
 */
export interface PushSettings {
  /** `none` when PUSH_PROVIDER names `webpush` alone. */
  provider: 'log' | 'onesignal' | 'none';
  oneSignal: { appId: string; apiKey: string; apiUrl: string } | null;
  webPush: WebPushSettings | null;
}

export interface WebPushSettings {
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** Hosts a subscription's endpoint may name although they resolve to a non-public address. */
  allowedHosts: string[];
}

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

/** Reads one variable at a time and remembers every problem, so all of them are reported together. */
class EnvReader {
  readonly problems: string[] = [];
  private readonly env: Env;

  constructor(env: Env) {
    this.env = env;
  }

  string(name: string, fallback: string): string {
    const value = this.env[name];
    return value === undefined || value === '' ? fallback : value;
  }

  optional(name: string): string | null {
    const value = this.env[name];
    return value === undefined || value === '' ? null : value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.string(name, fallback);
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
    return fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (Number.isInteger(value) && value >= min && value <= max) return value;
    this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }

  url(name: string, protocols: string[]): string | null {
    const raw = this.optional(name);
    if (raw === null) return null;
    try {
      const parsed = new URL(raw);
      if (protocols.includes(parsed.protocol)) return raw;
    } catch {
      // reported below
    }
    this.problems.push(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    return null;
  }

  switch(name: string, fallback: boolean): boolean {
    const raw = this.optional(name);
    if (raw === null) return fallback;
    if (['on', 'true', '1'].includes(raw)) return true;
    if (['off', 'false', '0'].includes(raw)) return false;
    this.problems.push(`${name} must be on or off (got "${raw}")`);
    return fallback;
  }

  require(name: string, when: string): string {
    const value = this.optional(name);
    if (value === null) {
      this.problems.push(`${name} is required ${when}`);
      return '';
    }
    return value;
  }
}

/** Where the migrated embedded database made at install is kept (Config.databaseTemplateDir). */
export function databaseTemplateDirOf(env: Env = process.env): string | null {
  const chosen = env.DATABASE_TEMPLATE_DIR;
  if (chosen === undefined)
    return fileURLToPath(new URL('../node_modules/.cache/travel-media-service', import.meta.url));
  return chosen === '' ? null : resolve(chosen);
}

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const appEnv = read.oneOf('APP_ENV', ['development', 'production', 'test'] as const, 'development');
  const host = read.string('HOST', '127.0.0.1');
  const port = read.integer('PORT', 3000, 0, 65535);
  const publicUrl = read.url('PUBLIC_URL', ['http:', 'https:']) ?? `http://${host}:${port}`;
  const metricsPort = read.optional('METRICS_PORT') === null ? null : read.integer('METRICS_PORT', 0, 1, 65535);
  const push = pushSettingsOf(read);
  const s3Bucket = read.optional('S3_BUCKET');
  const s3 =
    s3Bucket === null
      ? null
      : {
          endpoint: read.url('S3_ENDPOINT', ['http:', 'https:']),
          region: read.string('S3_REGION', 'us-east-1'),
          bucket: s3Bucket,
          accessKeyId: read.require('S3_ACCESS_KEY_ID', 'when S3_BUCKET is set'),
          secretAccessKey: read.require('S3_SECRET_ACCESS_KEY', 'when S3_BUCKET is set'),
          forcePathStyle: read.switch('S3_FORCE_PATH_STYLE', true),
        };
  const config: Config = {
    appEnv,
    host,
    port,
    publicUrl: publicUrl.replace(/\/$/, ''),
    dataDir: resolve(read.string('DATA_DIR', './var')),
    databaseUrl: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseMigrationUrl: read.url('DATABASE_MIGRATION_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', 10, 1, 200),
    databaseReplicaUrl: read.url('DATABASE_REPLICA_URL', ['postgres:', 'postgresql:']),
    databaseReplicaMaxLagSeconds: read.integer('DATABASE_REPLICA_MAX_LAG_SECONDS', 5, 1, 300),
    databaseTemplateDir: databaseTemplateDirOf(env),
    redisUrl: read.url('REDIS_URL', ['redis:', 'rediss:']),
    smtpUrl: read.url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: read.string('MAIL_FROM', 'Travel Media <no-reply@localhost>'),
    adminApiToken: read.optional('ADMIN_API_TOKEN'),
    rateLimits: read.switch('RATE_LIMITS', true),
    checkAnswers: read.switch('CHECK_ANSWERS', appEnv !== 'production'),
    trustProxy: trustProxyOf(read.optional('TRUST_PROXY')),
    logLevel: read.oneOf(
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      appEnv === 'test' ? 'silent' : 'info',
    ),
    sessionTtlDays: read.integer('SESSION_TTL_DAYS', 30, 1, 365),
    accountDeletionGraceDays: read.integer('ACCOUNT_DELETION_GRACE_DAYS', 30, 0, 365),
    sessionCacheSeconds: read.integer('SESSION_CACHE_SECONDS', 30, 0, 300),
    notificationDigestIntervalMinutes: read.integer(
      'NOTIFICATION_DIGEST_INTERVAL_MINUTES',
      appEnv === 'production' ? 5 : 2,
      1,
      1440,
    ),
    notificationDedupWindowMinutes: read.integer('NOTIFICATION_DEDUP_WINDOW_MINUTES', 5, 0, 10080),
    mediaRenderConcurrency: read.integer('MEDIA_RENDER_CONCURRENCY', defaultRenderConcurrency(), 1, 64),
    // Tests wait long by default (their renders run beside other test files); the 503 path has its own test.
    mediaRenderWaitMs: read.integer('MEDIA_RENDER_WAIT_MS', appEnv === 'test' ? 60_000 : 2_000, 0, 60_000),
    mediaRenderRateLimit: read.integer('MEDIA_RENDER_RATE_LIMIT', 60, 1, 100_000),
    requestTimeoutSeconds: read.integer('REQUEST_TIMEOUT_SECONDS', 120, 1, 3600),
    metrics: metricsPort === null ? null : { host: read.string('METRICS_HOST', host), port: metricsPort },
    shutdownDelaySeconds: read.integer('SHUTDOWN_DELAY_SECONDS', appEnv === 'production' ? 5 : 0, 0, 120),
    mediaQuotaBytes: megabytesOrUnlimited(read.integer('MEDIA_QUOTA_MB', 2048, 0, 1_000_000_000)),
    corsOrigins: corsOriginsOf(read.optional('CORS_ORIGINS'), read.problems),
    mediaEtagSecret: read.optional('MEDIA_ETAG_SECRET'),
    twoFactorSecret: read.optional('TWO_FACTOR_SECRET'),
    federation: {
      enabled: read.switch('FEDERATION', false),
      allowPrivateAddress: read.switch('FEDERATION_ALLOW_PRIVATE_ADDRESS', false),
      secret: read.optional('FEDERATION_SECRET'),
    },
    mapTileUrl: mapTileUrlOf(read.optional('MAP_TILE_URL'), read.problems),
    mapTileAttribution: read.optional('MAP_TILE_ATTRIBUTION'),
    push,
    identityProviders: identityProvidersOf(read),
    s3,
  };
  if (config.adminApiToken !== null && config.adminApiToken.length < 16) {
    read.problems.push('ADMIN_API_TOKEN must be at least 16 characters');
  }
  if (config.mediaEtagSecret !== null && config.mediaEtagSecret.length < 16) {
    read.problems.push('MEDIA_ETAG_SECRET must be at least 16 characters');
  }
  if (config.federation.secret !== null && config.federation.secret.length < 32) {
    read.problems.push('FEDERATION_SECRET must be at least 32 characters');
  }
  if (config.twoFactorSecret !== null && config.twoFactorSecret.length < 32) {
    read.problems.push('TWO_FACTOR_SECRET must be at least 32 characters');
  }
  if (metricsPort !== null && metricsPort === port) {
    read.problems.push('METRICS_PORT must differ from PORT (the metrics are never served on the public port)');
  }
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/** Comma-separated values, trimmed, empty ones dropped. */
const listOf = (raw: string) =>
  raw
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');

const pushChannels = ['log', 'onesignal', 'webpush'] as const;

/** PUSH_PROVIDER (a comma list), ONESIGNAL_* with onesignal, VAPID_* and WEB_PUSH_ALLOWED_HOSTS with webpush. */
function pushSettingsOf(read: EnvReader): PushSettings {
  const named = listOf(read.string('PUSH_PROVIDER', 'log'));
  const unknown = named.filter((name) => !(pushChannels as readonly string[]).includes(name));
  if (unknown.length > 0 || named.length === 0) {
    read.problems.push(`PUSH_PROVIDER must name one or more of ${pushChannels.join(', ')} (got "${named.join(',')}")`);
  }
  if (named.includes('log') && named.includes('onesignal')) {
    read.problems.push('PUSH_PROVIDER names either log or onesignal, not both');
  }
  const provider = named.includes('onesignal')
    ? 'onesignal'
    : named.includes('webpush') && !named.includes('log')
      ? 'none'
      : 'log';
  const oneSignal =
    provider === 'onesignal'
      ? {
          appId: read.require('ONESIGNAL_APP_ID', 'when PUSH_PROVIDER names onesignal'),
          apiKey: read.require('ONESIGNAL_API_KEY', 'when PUSH_PROVIDER names onesignal'),
          apiUrl: read.url('ONESIGNAL_API_URL', ['http:', 'https:']) ?? 'https://api.onesignal.com',
        }
      : null;
  return { provider, oneSignal, webPush: named.includes('webpush') ? webPushSettingsOf(read) : null };
}

function webPushSettingsOf(read: EnvReader): WebPushSettings {
  const when = 'when PUSH_PROVIDER names webpush (npm run cli -- push:vapid-keys makes a pair)';
  const publicKey = read.require('VAPID_PUBLIC_KEY', when);
  const privateKey = read.require('VAPID_PRIVATE_KEY', when);
  const subject = read.require('VAPID_SUBJECT', 'when PUSH_PROVIDER names webpush');
  if (publicKey !== '' && !isUncompressedP256Point(publicKey)) {
    read.problems.push('VAPID_PUBLIC_KEY must be an uncompressed P-256 public key (65 bytes, base64url)');
  }
  if (privateKey !== '' && !isVapidPrivateKey(privateKey)) {
    read.problems.push('VAPID_PRIVATE_KEY must be a P-256 private key (32 bytes, base64url)');
  }
  if (subject !== '' && !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(subject)) {
    read.problems.push('VAPID_SUBJECT must be a mailto: address or an https: URL');
  }
  const allowedHosts = listOf(read.string('WEB_PUSH_ALLOWED_HOSTS', '')).map((host) =>
    host.toLowerCase().replace(/^\[(.*)\]$/, '$1'),
  );
  return { vapid: { publicKey, privateKey, subject }, allowedHosts };
}

/** GOOGLE_*, APPLE_*, FACEBOOK_* and IDENTITY_PROVIDER_TIMEOUT_MS, with the providers' public URLs as defaults. */
function identityProvidersOf(read: EnvReader): IdentityProvidersConfig {
  const oidc = (prefix: string, issuer: string, jwksUrl: string): OidcProviderConfig | null => {
    const clientIds = listOf(read.string(`${prefix}_CLIENT_IDS`, ''));
    const issuers = listOf(read.string(`${prefix}_ISSUER`, issuer));
    const jwks = read.url(`${prefix}_JWKS_URL`, ['http:', 'https:']) ?? jwksUrl;
    return clientIds.length === 0 ? null : { clientIds, issuers, jwksUrl: jwks };
  };
  const facebookAppId = read.optional('FACEBOOK_APP_ID');
  const graphUrl = read.url('FACEBOOK_GRAPH_URL', ['http:', 'https:']) ?? 'https://graph.facebook.com/v24.0';
  return {
    timeoutMs: read.integer('IDENTITY_PROVIDER_TIMEOUT_MS', 5_000, 50, 60_000),
    // Google signs with either spelling of its issuer.
    google: oidc(
      'GOOGLE',
      'https://accounts.google.com,accounts.google.com',
      'https://www.googleapis.com/oauth2/v3/certs',
    ),
    apple: oidc('APPLE', 'https://appleid.apple.com', 'https://appleid.apple.com/auth/keys'),
    facebook:
      facebookAppId === null
        ? null
        : {
            appId: facebookAppId,
            appSecret: read.require('FACEBOOK_APP_SECRET', 'when FACEBOOK_APP_ID is set'),
            graphUrl: graphUrl.replace(/\/$/, ''),
          },
  };
}

/** MEDIA_QUOTA_MB: 0 means no quota. */
const megabytesOrUnlimited = (megabytes: number) => (megabytes === 0 ? null : megabytes * 1024 * 1024);

/** CORS_ORIGINS: `*`, or comma-separated origins (`https://app.example.com`, no path). */
function corsOriginsOf(raw: string | null, problems: string[]): string[] {
  if (raw === null) return [];
  const origins = raw
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  if (origins.includes('*')) return ['*'];
  const invalid = origins.filter((origin) => {
    try {
      const url = new URL(origin);
      return !['http:', 'https:'].includes(url.protocol) || url.origin !== origin;
    } catch {
      return true;
    }
  });
  if (invalid.length > 0) {
    problems.push(
      `CORS_ORIGINS must be * or comma-separated origins such as https://app.example.com (got "${invalid.join('", "')}")`,
    );
  }
  return origins;
}

/**
 * Below the core count and below the libuv pool: every render holds a thread of the pool that file
 * reads, DNS and argon2 share (UV_THREADPOOL_SIZE, 4 by default), so at least two stay free for them,
 * and one core stays free for the event loop.
 */
function defaultRenderConcurrency(): number {
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(availableParallelism() - 1, pool - 2));
}

/** MAP_TILE_URL: an http(s) URL template holding {z}, {x} and {y} (Leaflet's syntax). */
function mapTileUrlOf(raw: string | null, problems: string[]): string | null {
  if (raw === null) return null;
  let valid = ['{z}', '{x}', '{y}'].every((part) => raw.includes(part));
  try {
    valid &&= ['http:', 'https:'].includes(new URL(raw.replace(/\{[a-z]\}/g, '0')).protocol);
  } catch {
    valid = false;
  }
  // The pages' CSP names the tile server's origin: a placeholder in the host can only be a whole
  // leftmost label (`{s}.tiles.example` -> `*.tiles.example`), the one wildcard CSP understands.
  const host = /^https?:\/\/([^/?#]*)/i.exec(raw)?.[1] ?? '';
  valid &&= !host.replace(/^\{s\}\./, '').includes('{');
  if (!valid) {
    problems.push(
      `MAP_TILE_URL must be an http(s) URL template with {z}, {x} and {y}, and no placeholder in the host but a leading {s}. (got "${raw}")`,
    );
  }
  return valid ? raw : null;
}

/** TRUST_PROXY: unset/false, true, a hop count, or a comma-separated list of proxy addresses. */
function trustProxyOf(raw: string | null): boolean | number | string {
  if (raw === null || raw === 'false' || raw === 'off') return false;
  if (raw === 'true' || raw === 'on') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}
