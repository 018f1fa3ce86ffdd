/**
 * The mail outbox with a real SMTP server (the local sink): a mail server that is down delays every
 * kind of mail and loses none; each arrives exactly once when it is back; a mail that keeps failing
 * ends `failed` and operators see it in GET /admin/stats; a write that rolls back files nothing.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword } from '../../../test/helpers/factories.ts';
import { startAppWithSmtpSink } from '../../../test/helpers/smtp-app.ts';
import type { SmtpSink } from '../../../test/support/smtp-sink.ts';
import { queryRows } from '../db/rows.ts';
import type { OutboxCounts } from './mail-outbox.repository.ts';
import { mailRetry, messageIdDomain, retryDelayMs } from './outbox-sender.ts';

describe('mail outbox over SMTP', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let close: () => Promise<void>;
  before(async () => {
    ({ t, sink, close } = await startAppWithSmtpSink());
  });
  after(() => close());
  beforeEach(async () => {
    sink.refuse(false);
    await flush();
    sink.clear();
  });

  const admin = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, body });
  /** Runs the job mail-outbox now (POST /admin/jobs/flush/mail-outbox) and returns its report. */
  const flush = async () => {
    const res = await admin('POST', '/admin/jobs/flush/mail-outbox');
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data.attributes.report as { sent: number; retryLater: number; failed: number; deleted: number };
  };
  /** GET /admin/stats' mail counts, computed now. */
  const mailCounts = async () => {
    assert.equal((await admin('POST', '/admin/jobs/flush/stats')).statusCode, 200);
    const res = await admin('GET', '/admin/stats');
    assert.equal(res.statusCode, 200);
    return res.json.data.attributes.counts.mail as OutboxCounts;
  };
  /** Waits for the work mail requests do after their answer (it files the mail). */
  const afterAnswers = async () => {
    await t.services.areas.accounts.mailFlows.drain();
    await t.services.areas.newsletter.newsletter.drain();
  };
  const received = (to: string, subject: RegExp) =>
    sink.messages.filter((message) => message.to.includes(to) && subject.test(message.subject));

  it('keeps every kind of mail while the server is down and sends each exactly once when it is back', async () => {
    const reporter = await createUser(t);
    const reported = await createUser(t);
    const resetee = await createUser(t);
    const report = await t.request({
      method: 'POST',
      url: `/api/users/${reported.id}/reports`,
      token: reporter.token,
      body: { reason: 'spam' },
    });
    assert.equal(report.statusCode, 201, report.body);
    await flush();
    sink.clear();
    const before = await mailCounts();

    sink.refuse(true);
    const registered = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'outbox-new@example.test', password: strongPassword },
    });
    assert.equal(registered.statusCode, 201);
    const forgot = await t.request({
      method: 'POST',
      url: '/api/auth/forgot-password',
      body: { email: resetee.email },
    });
    assert.equal(forgot.statusCode, 202);
    const subscribed = await t.request({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      body: { email: 'outbox-news@example.test' },
    });
    assert.equal(subscribed.statusCode, 202);
    const resolved = await admin('PATCH', `/admin/reports/${report.json.data.id}`, { resolution: 'dismissed' });
    assert.equal(resolved.statusCode, 200, resolved.body);
    await afterAnswers();
    assert.equal(sink.messages.length, 0, 'the server refused every connection');

    // The first attempt (right after each commit) failed: the next one waits a minute.
    assert.deepEqual(await flush(), { sent: 0, retryLater: 0, failed: 0, deleted: 0 });
    t.clock.advance(30_000);
    const waiting = await mailCounts();
    assert.equal(waiting.pending, before.pending + 4);
    assert.equal(waiting.total, before.total + 4);
    assert.equal(waiting.oldestPendingSeconds, 30);

    t.clock.advance(retryDelayMs(1));
    assert.equal((await flush()).retryLater, 4, 'still down: each waits again');
    assert.equal(sink.messages.length, 0);

    sink.refuse(false);
    t.clock.advance(retryDelayMs(2));
    assert.equal((await flush()).sent, 4);
    assert.equal((await flush()).sent, 0, 'a second run finds nothing to send');
    assert.equal(received('outbox-new@example.test', /confirm/i).length, 1);
    assert.equal(received(resetee.email, /password/i).length, 1);
    assert.equal(received('outbox-news@example.test', /newsletter/i).length, 1);
    assert.equal(received(reporter.email, /report/i).length, 1);
    assert.equal(sink.messages.length, 4);
    // The rendered message is as it was filed: the newsletter's one-click unsubscribe header too.
    const newsletter = received('outbox-news@example.test', /newsletter/i)[0]!;
    assert.match(newsletter.headers['list-unsubscribe'] ?? '', /\/newsletter\/unsubscribe\?token=/);
    // Each Message-ID is made of the mail's id, so a receiving server can drop a duplicate.
    const ids = sink.messages.map((message) => message.headers['message-id']);
    assert.equal(new Set(ids).size, 4);
    const domain = messageIdDomain(t.deps.config.mailFrom, t.deps.config.publicUrl);
    for (const id of ids) assert.match(id ?? '', new RegExp(`^<[0-9a-f-]{36}@${domain.replaceAll('.', '\\.')}>$`));

    const sent = await mailCounts();
    assert.equal(sent.pending, before.pending);
    assert.equal(sent.sent, before.sent + 4);
    assert.equal(sent.oldestPendingSeconds, 0);
  });

  it('gives a mail up after its last attempt: failed in the stats, never sent afterwards', async () => {
    const user = await createUser(t);
    await flush();
    const before = await mailCounts();
    sink.refuse(true);
    assert.equal(
      (await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } })).statusCode,
      202,
    );
    await afterAnswers();
    // The first attempt was at the commit; the others are the job's, each after its backoff.
    for (let attempt = 2; attempt < mailRetry.attempts; attempt++) {
      t.clock.advance(retryDelayMs(attempt - 1));
      assert.equal((await flush()).retryLater, 1, `attempt ${attempt}`);
    }
    t.clock.advance(retryDelayMs(mailRetry.attempts - 1));
    assert.deepEqual(await flush(), { sent: 0, retryLater: 0, failed: 1, deleted: 0 });
    const counts = await mailCounts();
    assert.equal(counts.failed, before.failed + 1);
    assert.equal(counts.pending, before.pending);
    // Given up, it keeps no body: its reset link must not stay readable in the database.
    const kept = await queryRows<{ text_body: string; html_body: string }>(
      t.deps.database.db,
      sql`SELECT text_body, html_body FROM mail_outbox WHERE recipient = ${user.email} AND status = 'failed'`,
    );
    assert.deepEqual(kept, [{ text_body: '', html_body: '' }]);

    sink.refuse(false);
    t.clock.advance(mailRetry.maxDelayMs);
    assert.equal((await flush()).sent, 0);
    assert.equal(received(user.email, /password/i).length, 0);

    // Kept 30 days for operators, then deleted by the job.
    t.clock.advance(30 * 86_400_000);
    assert.ok((await flush()).deleted >= 1);
    assert.equal((await mailCounts()).failed, 0);
  });

  it('files no mail for a write that rolls back', async () => {
    const before = await mailCounts();
    const refused = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'outbox-rollback@example.test', password: strongPassword, couponCode: 'NO-SUCH-CODE' },
    });
    assert.equal(refused.statusCode, 422);
    assert.equal(refused.json.errors[0].code, 'couponInvalid');
    assert.equal((await flush()).sent, 0);
    assert.equal((await mailCounts()).total, before.total);
    assert.equal(received('outbox-rollback@example.test', /.*/).length, 0);
  });
});
