/** Push flush rules against a local server that speaks OneSignal's API. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { dispatchFollow, dispatchLevelUp } from '../../../test/helpers/notifications.ts';
import { type FakeOneSignal, startFakeOneSignal } from '../../../test/support/fake-onesignal-server.ts';
import { createPushProvider, OneSignalPushProvider, pushIdempotencyKey } from '../../adapters/push/index.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { NotificationsRepository } from './notifications.repository.ts';
import { PushFlush } from './push-flush.ts';

const silent = pino({ level: 'silent' });

describe('push flush', () => {
  let fake: FakeOneSignal;
  let t: TestApp;
  let actor: TestUser;
  before(async () => {
    fake = await startFakeOneSignal();
    const push = createPushProvider(
      { provider: 'onesignal', oneSignal: { appId: fake.appId, apiKey: fake.apiKey, apiUrl: fake.url } },
      silent,
    );
    t = await createTestApp({ deps: { push } });
    actor = await createUser(t, { nickname: 'Ana' });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(async () => {
    await t.services.platform.jobs.run('notifications-push'); // nothing left over from an earlier test
    fake.reset();
  });

  const flush = async () => {
    const res = await t.request({ method: 'POST', url: '/admin/jobs/flush/notifications-push', token: adminToken });
    assert.equal(res.statusCode, 200);
    return res.json.data.attributes;
  };
  const follow = (recipient: TestUser, from = actor) => dispatchFollow(t, recipient, from);
  const levelUp = (recipient: TestUser, level: number) => dispatchLevelUp(t, recipient, level);
  const unpushed = async (user: TestUser) =>
    (
      await queryRows<{ n: number }>(
        t.deps.database.db,
        sql`SELECT count(*)::int AS n FROM notifications WHERE owner_id = ${user.id} AND pushed_at IS NULL`,
      )
    )[0]?.n;
  const sentTo = (user: TestUser) => fake.notifications.filter((n) => n.externalIds.includes(user.hex));

  it('one row gives an individual push in every language, to the external_id alias, with a deterministic key', async () => {
    const recipient = await createUser(t);
    const { id } = await follow(recipient);
    const run = await flush();
    assert.equal(run.ran, true);
    assert.deepEqual(run.report, { recipients: 1, individual: 1, digest: 0, suppressed: 0, failed: 0, retryLater: 0 });
    assert.equal(fake.requests.length, 1);
    const body = fake.requests[0]!.body!;
    assert.equal(body.app_id, fake.appId);
    assert.equal(body.target_channel, 'push');
    assert.deepEqual(body.include_aliases, { external_id: [recipient.hex] });
    assert.match(recipient.hex, /^[0-9a-f]{32}$/);
    assert.deepEqual(body.headings, { en: 'New follower', fr: 'Nouvel abonné' });
    assert.deepEqual(body.contents, { en: 'Ana started following you.', fr: "Ana s'est abonné à vous." });
    assert.equal(body.idempotency_key, pushIdempotencyKey(recipient.hex, [id!]));
    assert.equal(await unpushed(recipient), 0);
  });

  it('two or more rows give one digest push with the count', async () => {
    const recipient = await createUser(t);
    await follow(recipient);
    await levelUp(recipient, 1);
    await levelUp(recipient, 2);
    const run = await flush();
    assert.deepEqual(run.report, { recipients: 1, individual: 0, digest: 1, suppressed: 0, failed: 0, retryLater: 0 });
    const [sent] = sentTo(recipient);
    assert.equal(sentTo(recipient).length, 1);
    assert.deepEqual(sent!.body.headings, { en: '3 new notifications', fr: '3 nouvelles notifications' });
    assert.equal(sent!.body.contents!.en, 'You have 3 new notifications waiting for you.');
    assert.equal(sent!.body.contents!.fr, '3 nouvelles notifications vous attendent.');
    assert.equal(await unpushed(recipient), 0);
  });

  it('rows of a kind with push off get pushed_at and send nothing', async () => {
    const quiet = await createUser(t);
    const mixed = await createUser(t);
    for (const user of [quiet, mixed]) {
      const res = await t.request({
        method: 'PATCH',
        url: '/api/users/me/notifications/preferences',
        token: user.token,
        body: { 'follow.received': { push: false } },
      });
      assert.equal(res.statusCode, 200);
    }
    await follow(quiet);
    await follow(mixed);
    await levelUp(mixed, 1);
    const run = await flush();
    assert.deepEqual(run.report, { recipients: 2, individual: 1, digest: 0, suppressed: 2, failed: 0, retryLater: 0 });
    assert.equal(sentTo(quiet).length, 0);
    assert.equal(sentTo(mixed).length, 1);
    assert.equal(sentTo(mixed)[0]!.body.headings!.en, 'Level 1 reached');
    assert.equal(await unpushed(quiet), 0);
    assert.equal(await unpushed(mixed), 0);
    // The rows are still in the in-app feed.
    const feed = await t.request({ method: 'GET', url: '/api/users/me/notifications', token: quiet.token });
    assert.equal(feed.json.meta.total, 1);
  });

  it('a second flush sends nothing, and a dedup refresh of a pushed row does not push it again', async () => {
    const recipient = await createUser(t);
    await follow(recipient);
    await flush();
    assert.equal(fake.requests.length, 1);
    assert.deepEqual((await flush()).report, {
      recipients: 0,
      individual: 0,
      digest: 0,
      suppressed: 0,
      failed: 0,
      retryLater: 0,
    });
    t.clock.advanceMinutes(1);
    assert.equal((await follow(recipient)).outcome, 'refreshed');
    assert.equal((await flush()).report.recipients, 0);
    assert.equal(fake.requests.length, 1);
  });

  it('two flushes started at once send each push once', async () => {
    const recipients = [await createUser(t), await createUser(t), await createUser(t)];
    for (const recipient of recipients) await follow(recipient);
    const runs = await Promise.all([flush(), flush()]);
    assert.deepEqual(runs.map((run) => run.ran).sort(), [false, true]);
    assert.equal(fake.notifications.length, 3);
    for (const recipient of recipients) assert.equal(sentTo(recipient).length, 1);
  });

  it('a provider failure for one recipient is logged as pushprovider.pushFailed and the others still get theirs', async () => {
    const failing = await createUser(t);
    const others = [await createUser(t), await createUser(t)];
    for (const user of [failing, ...others]) await follow(user);
    fake.failFor(failing.hex, { status: 400 });
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const job = new PushFlush({
      repository: new NotificationsRepository(t.deps.database),
      push: t.deps.push,
      clock: t.clock,
      logger: logger as unknown as FastifyBaseLogger,
    });
    const report = await job.run();
    assert.deepEqual(report, { recipients: 3, individual: 2, digest: 0, suppressed: 0, failed: 1, retryLater: 0 });
    for (const user of others) assert.equal(sentTo(user).length, 1);
    assert.equal(sentTo(failing).length, 0);
    const failure = lines.find((line) => line.event === 'pushprovider.pushFailed');
    assert.ok(failure, 'the failure is logged');
    assert.equal(failure.externalId, failing.hex);
    // A 400 keeps the rows for one more flush (the request may be ours to fix)...
    assert.equal(await unpushed(failing), 1);
    assert.equal(failure.rejected, true);
    // ...and the second 400 gives up on them: the next flush does not hammer the provider.
    assert.equal((await job.run()).failed, 1);
    assert.equal(await unpushed(failing), 0);
    assert.equal((await job.run()).recipients, 0);
    assert.equal(
      fake.requests.filter((request) => request.body?.include_aliases?.external_id?.[0] === failing.hex).length,
      2,
    );
  });

  it('a permanent failure other than 400 (no subscription) gives up on the rows at once', async () => {
    const unknown = await createUser(t);
    await follow(unknown);
    fake.invalidAlias(unknown.hex);
    const report = (await flush()).report;
    assert.equal(report.failed, 1);
    assert.equal(report.retryLater, 0);
    assert.equal(await unpushed(unknown), 0);
  });

  it('a retryable failure keeps the rows for the next flush, which sends them with the same idempotency key', async () => {
    const recipient = await createUser(t);
    await follow(recipient);
    fake.failFor(recipient.hex, { status: 503, times: 1 });
    const provider = new OneSignalPushProvider({
      appId: fake.appId,
      apiKey: fake.apiKey,
      apiUrl: fake.url,
      maxRetries: 0,
    });
    const job = new PushFlush({
      repository: new NotificationsRepository(t.deps.database),
      push: provider,
      clock: t.clock,
      logger: silent as unknown as FastifyBaseLogger,
    });
    const first = await job.run();
    assert.equal(first.failed, 1);
    assert.equal(first.retryLater, 1, 'the queued job fails on this, so the queue retries it');
    assert.equal(await unpushed(recipient), 1);
    assert.equal((await job.run()).individual, 1);
    assert.equal(fake.requests.length, 2);
    assert.equal(fake.requests[0]!.body!.idempotency_key, fake.requests[1]!.body!.idempotency_key);
    assert.equal(sentTo(recipient).length, 1);
  });

  it('walks recipients and rows in bounded batches, and counts every waiting row in one digest', async () => {
    const recipients = [];
    for (let i = 0; i < 5; i++) recipients.push(await createUser(t));
    for (const recipient of recipients) await follow(recipient);
    const busy = recipients[0]!;
    await levelUp(busy, 1);
    await levelUp(busy, 2);
    const job = new PushFlush({
      repository: new NotificationsRepository(t.deps.database),
      push: t.deps.push,
      clock: t.clock,
      logger: silent as unknown as FastifyBaseLogger,
      limits: {
        recipientBatch: 2,
        rowsPerQuery: 2,
      },
    });
    assert.deepEqual(await job.run(), {
      recipients: 5,
      individual: 4,
      digest: 1,
      suppressed: 0,
      failed: 0,
      retryLater: 0,
    });
    assert.equal(await unpushed(busy), 0, 'all three rows went into the digest, though marked two at a time');
    const [digest] = sentTo(busy);
    assert.equal(sentTo(busy).length, 1);
    assert.equal((digest!.body as { data: { count: number } }).data.count, 3);
    assert.deepEqual(await job.run(), {
      recipients: 0,
      individual: 0,
      digest: 0,
      suppressed: 0,
      failed: 0,
      retryLater: 0,
    });
  });
});
