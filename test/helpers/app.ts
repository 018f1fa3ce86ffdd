/**
 * One app per test file (or per describe block): a fresh database, a manual clock, mail captured in
 * memory (each mail filed in the outbox is sent right after its commit, unless `mailDelivery: 'queue'`),
 * rate limits off unless asked for, and an admin token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pino, { type Logger } from 'pino';
import { LocalBroadcast } from '../../src/adapters/broadcast/index.ts';
import type { Mailer, MailMessage } from '../../src/adapters/mail/index.ts';
import { LogPushProvider } from '../../src/adapters/push/index.ts';
import { LocalStorage } from '../../src/adapters/storage/index.ts';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type AppDeps, webPushSenderOf } from '../../src/deps.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { MemoryRateLimitStore } from '../../src/platform/http/memory-rate-limit-store.ts';
import type { App } from '../../src/platform/http/types.ts';
import type { MailDelivery } from '../../src/platform/mail-outbox/mail-outbox.ts';
import type { Services } from '../../src/services.ts';
import { openTestDatabase } from './database.ts';
import { watchStatuses } from './declared-statuses.ts';
import { watchDoubleSends } from './double-sends.ts';

export const adminToken = 'test-admin-token-0123456789abcdef';

/** Keeps every mail the app sends, for assertions. The SMTP path has its own tests. */
export class CapturedMail implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push(message);
  }
  last(to?: string): MailMessage | undefined {
    return [...this.sent].reverse().find((mail) => to === undefined || mail.to === to);
  }
}

export interface TestApp {
  app: App;
  services: Services;
  deps: AppDeps;
  clock: ManualClock;
  mail: CapturedMail;
  /** inject() with a bearer token and JSON body shortcuts; `json` is the parsed body (or undefined). */
  request(options: TestRequest): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestRequest {
  method: InjectOptions['method'];
  url: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  payload?: InjectOptions['payload'];
}

export type TestResponse = LightMyRequestResponse & { json: any };

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    deps?: Partial<AppDeps>;
    clock?: ManualClock;
    /** Another instance's view of an existing test database (see openAnotherInstance); not closed here. */
    database?: Database;
    /** Compile every route's validators and serializers at registration (see src/platform/http/validation.ts). */
    compileSchemas?: 'firstUse' | 'now';
    /**
     * `atCommit` (default): a filed mail is sent before its transaction's `run` returns, so `t.mail`
     * holds it once the request (or the after-answer work) is done; a failed send waits for the job
     * mail-outbox. `queue`: only the job sends (as in production; this app's queue is not started).
     */
    mailDelivery?: MailDelivery;
    /** The app's logger (none by default), for a test that reads what is logged. */
    logger?: Logger;
  } = {},
): Promise<TestApp> {
  const config: Config = loadConfig({
    APP_ENV: 'test',
    ADMIN_API_TOKEN: adminToken,
    RATE_LIMITS: 'off',
    DATA_DIR: '/tmp/tms-test-data',
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock('2026-11-21T12:00:00.000Z');
  const mail = new CapturedMail();
  const database = options.database ?? (await openTestDatabase());
  // Media files go to a fresh temporary directory unless the test brings its own storage (e.g. S3).
  const mediaDir = options.deps?.storage ? null : mkdtempSync(join(tmpdir(), 'tms-media-'));
  const deps: AppDeps = {
    config,
    database,
    clock,
    mailer: mail,
    rateLimitStore: new MemoryRateLimitStore(clock),
    storage: mediaDir === null ? options.deps!.storage! : new LocalStorage(mediaDir),
    push: new LogPushProvider(pino({ level: 'silent' })),
    webPush: webPushSenderOf(config),
    broadcast: new LocalBroadcast(),
    ...options.deps,
  };
  // A test's own logger replaces the watch (its lines are the test's to read).
  const doubleSends = watchDoubleSends();
  const { app, services } = await buildApp(deps, {
    loggerInstance: options.logger ?? doubleSends.logger,
    compileSchemas: options.compileSchemas,
    mailDelivery: options.mailDelivery ?? 'atCommit',
  });
  const statuses = watchStatuses(app);
  await app.ready();
  return {
    app,
    services,
    deps,
    clock,
    mail,
    async request({ method, url, token, body, headers = {}, payload }) {
      const response = await app.inject({
        method,
        url,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        payload: payload ?? (body !== undefined ? JSON.stringify(body) : undefined),
      });
      let json: unknown;
      try {
        json = response.body === '' ? undefined : JSON.parse(response.body);
      } catch {
        json = undefined;
      }
      return Object.assign(response, { json });
    },
    async close() {
      const undeclared = statuses.undeclared();
      await app.close();
      await deps.rateLimitStore.close?.();
      await deps.broadcast.close();
      if (options.database === undefined) await database.close();
      if (mediaDir !== null) rmSync(mediaDir, { recursive: true, force: true });
      if (undeclared.length > 0) throw new Error(`undeclared statuses:\n${undeclared.join('\n')}`);
      const sentTwice = doubleSends.seen();
      if (sentTwice.length > 0) throw new Error(`answers sent twice:\n${sentTwice.join('\n')}`);
    },
  };
}
