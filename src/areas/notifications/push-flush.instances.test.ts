/**
 * The push flush is idempotent in the database: two server instances flushing at the same moment (two
 * connection pools on one PostgreSQL; on PGlite, two flushes in the one process that owns the files)
 * send each pending push exactly once, and a flush that died after claiming rows gives them back
 * when its lease lapses.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { openAnotherInstance } from '../../../test/helpers/database.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { type FakeOneSignal, startFakeOneSignal } from '../../../test/support/fake-onesignal-server.ts';
import { createPushProvider, pushIdempotencyKey } from '../../adapters/push/index.ts';
import type { Database } from '../../platform/db/database.ts';
import { dedupKeys } from './kinds.ts';
import { NotificationsRepository } from './notifications.repository.ts';
import { PushFlush, pushClaimLeaseMs } from './push-flush.ts';

const logger = pino({ level: 'silent' });
const silent = logger as unknown as FastifyBaseLogger;

describe('push flush across instances', () => {
  let fake: FakeOneSignal;
  let t: TestApp;
  let other: { database: Database; close(): Promise<void> };
  let actor: TestUser;
  before(async () => {
    fake = await startFakeOneSignal();
    const push = createPushProvider(
      { provider: 'onesignal', oneSignal: { appId: fake.appId, apiKey: fake.apiKey, apiUrl: fake.url } },
      logger,
    );
    t = await createTestApp({ deps: { push } });
    other = await openAnotherInstance(t.deps.database);
    actor = await createUser(t);
  });
  after(async () => {
    await other.close();
    await t.close();
    await fake.close();
  });
  beforeEach(async () => {
    await flushOn(t.deps.database).run();
    fake.reset();
  });

  const flushOn = (database: Database) =>
    new PushFlush({
      repository: new NotificationsRepository(database),
      push: t.deps.push,
      clock: t.clock,
      logger: silent,
    });
  const follow = (recipient: TestUser, from = actor) =>
    t.services.areas.notifications.dispatcher.dispatch(
      recipient.id,
      'follow.received',
      { actorId: from.id, actorUsername: from.username, actorDisplayName: from.username },
      dedupKeys.followReceived(from.id),
    );
  const sentTo = (user: TestUser) => fake.notifications.filter((n) => n.externalIds.includes(user.hex));

  it('two instances flushing at the same moment send each pending push exactly once, also when flushed again right after', async () => {
    const recipients: TestUser[] = [];
    for (let i = 0; i < 12; i++) recipients.push(await createUser(t));
    for (const recipient of recipients) await follow(recipient);
    const digestRecipient = recipients[0]!;
    await follow(digestRecipient, await createUser(t));

    const instanceA = flushOn(t.deps.database);
    const instanceB = flushOn(other.database);
    const first = await Promise.all([instanceA.run(), instanceB.run(), instanceA.run(), instanceB.run()]);
    const again = await Promise.all([instanceA.run(), instanceB.run()]);

    assert.equal(
      first.reduce((sum, report) => sum + report.recipients, 0),
      recipients.length,
      'every recipient was flushed by exactly one of the runs',
    );
    for (const report of again) assert.equal(report.recipients, 0);
    // Not one request was repeated: the provider's idempotency key never had to save us.
    assert.equal(fake.requests.length, recipients.length);
    assert.equal(fake.requests.filter((request) => request.repeat).length, 0);
    for (const recipient of recipients) assert.equal(sentTo(recipient).length, 1, recipient.username);
    assert.equal((sentTo(digestRecipient)[0]!.body.data as { count: number }).count, 2);
  });

  it('rows claimed by a flush that died are left alone until its lease lapses, then pushed with the same key', async () => {
    const recipient = await createUser(t);
    const { id } = await follow(recipient);
    const repository = new NotificationsRepository(t.deps.database);
    const now = t.clock.now();
    // A flush on another instance claims the row, then its process dies before it pushes.
    const claimed = await repository.claimUnpushed(recipient.id, now, new Date(now.getTime() + pushClaimLeaseMs));
    assert.deepEqual(
      claimed.map((row) => row.id),
      [id],
    );

    assert.equal((await flushOn(other.database).run()).recipients, 0, 'the claim holds');
    assert.equal(fake.requests.length, 0);

    t.clock.advanceMinutes(pushClaimLeaseMs / 60_000 + 1);
    assert.equal((await flushOn(other.database).run()).individual, 1);
    assert.equal(fake.requests.length, 1);
    assert.equal(fake.requests[0]!.body!.idempotency_key, pushIdempotencyKey(recipient.hex, [id!]));
  });
});
