import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { createPushProvider } from './create-push-provider.ts';
import { LogPushProvider } from './log-push-provider.ts';
import { OneSignalPushProvider } from './onesignal-push-provider.ts';
import type { PushMessage } from './push-message.ts';

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const message: PushMessage = {
  externalId: '0123456789abcdef0123456789abcdef',
  headings: { en: '3 new notifications', fr: '3 nouvelles notifications' },
  contents: { en: 'Ana and 2 others', fr: 'Ana et 2 autres' },
  idempotencyKey: '2ed6657d-e927-568b-95e1-2665a8aea6a2',
};

describe('LogPushProvider', () => {
  it('logs each push as one push.sent line and reports it delivered', async () => {
    const { logger, lines } = memoryLogger();

    const result = await new LogPushProvider(logger).send(message);

    assert.equal(result.delivered, true);
    assert.equal(lines.length, 1);
    const [line] = lines;
    assert.equal(line!.event, 'push.sent');
    assert.equal(line!.externalId, message.externalId);
    assert.deepEqual(line!.headings, message.headings);
    assert.deepEqual(line!.contents, message.contents);
    assert.equal(line!.providerId, result.delivered && result.providerId);
  });

  it('refuses the same malformed messages as OneSignal would, without logging a push', async () => {
    const { logger, lines } = memoryLogger();

    const result = await new LogPushProvider(logger).send({ ...message, externalId: 'ana' });

    assert.deepEqual(result, {
      delivered: false,
      reason: 'invalid message: externalId must be 32 lowercase hex characters',
      retryable: false,
    });
    assert.equal(lines.length, 0);
  });
});

describe('createPushProvider', () => {
  const { logger } = memoryLogger();

  it('gives the log provider by default configuration', () => {
    assert.ok(createPushProvider({ provider: 'log', oneSignal: null }, logger) instanceof LogPushProvider);
  });

  it('gives OneSignal when configured', () => {
    const config = { appId: 'a', apiKey: 'k', apiUrl: 'http://127.0.0.1:1' };
    assert.ok(
      createPushProvider({ provider: 'onesignal', oneSignal: config }, logger) instanceof OneSignalPushProvider,
    );
  });

  it('refuses OneSignal without credentials', () => {
    assert.throws(() => createPushProvider({ provider: 'onesignal' }, logger), /ONESIGNAL_APP_ID/);
  });
});
