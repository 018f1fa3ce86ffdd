/**
 * The outbox across instances, as in production (mail leaves through the job only): two instances
 * running the job at once send each mail once; a run that died after its claim leaves the mail to a
 * run after the lease; a graceful stop leaves the unsent mail to another instance; and with the queue
 * running, a commit that filed mail files a run of the job, so the mail leaves without waiting for
 * the schedule.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CapturedMail, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { openAnotherInstance } from '../../../test/helpers/database.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import type { MailMessage } from '../../adapters/mail/index.ts';
import type { Database } from '../db/database.ts';
import { MailOutboxRepository } from './mail-outbox.repository.ts';
import { mailClaimLeaseMs } from './outbox-sender.ts';

/** Captures mail, handing each over a little later, so that two runs at once interleave. */
class SlowCapturedMail extends CapturedMail {
  #gate: Promise<void> | null = null;
  #open: (() => void) | null = null;
  /** Hand-overs begun. */
  begun = 0;

  override async send(message: MailMessage) {
    this.begun++;
    await (this.#gate ?? new Promise((resolve) => setImmediate(resolve)));
    await super.send(message);
  }

  /** Until `open()`, every hand-over waits. */
  hold(): void {
    this.#gate = new Promise((resolve) => {
      this.#open = resolve;
    });
  }

  open(): void {
    this.#open?.();
    this.#gate = null;
  }
}

describe('mail outbox across instances', () => {
  let one: TestApp;
  let two: TestApp;
  let other: { database: Database; close(): Promise<void> };
  const oneMail = new SlowCapturedMail();
  const twoMail = new SlowCapturedMail();
  before(async () => {
    one = await createTestApp({ mailDelivery: 'queue', deps: { mailer: oneMail } });
    other = await openAnotherInstance(one.deps.database);
    two = await createTestApp({
      mailDelivery: 'queue',
      database: other.database,
      clock: one.clock,
      deps: { mailer: twoMail },
    });
  });
  after(async () => {
    await two.close();
    await other.close();
    await one.close();
  });

  const run = (t: TestApp) => t.services.platform.jobs.run('mail-outbox');
  const sentTo = (user: TestUser) => [...oneMail.sent, ...twoMail.sent].filter((mail) => mail.to === user.email);
  /** Users whose registration filed a confirmation mail (not sent: only the job sends). */
  const register = async (count: number) => {
    const users: TestUser[] = [];
    for (let i = 0; i < count; i++) users.push(await createUser(one));
    return users;
  };

  it('two instances running the job at once send each mail exactly once', async () => {
    const users = await register(12);
    assert.equal(oneMail.sent.length + twoMail.sent.length, 0, 'nothing leaves but through the job');
    const runs = await Promise.all([run(one), run(two)]);
    const again = await Promise.all([run(one), run(two)]);
    for (const user of users) assert.equal(sentTo(user).length, 1, user.email);
    const reports = runs.map((outcome) => (outcome.ran ? (outcome.report.sent as number) : 0));
    assert.equal(
      reports.reduce((sum, sent) => sum + sent, 0),
      users.length,
    );
    for (const outcome of again) assert.equal(outcome.ran && outcome.report.sent, 0);
  });

  it('a run that died after its claim leaves the mail to the first run after the lease', async () => {
    const [user] = await register(1);
    // What a run does before the process dies: the claim, and nothing after it.
    const now = one.clock.now();
    const claimed = await new MailOutboxRepository(one.services.platform.transactions).claimDue(
      now,
      new Date(now.getTime() + mailClaimLeaseMs),
    );
    assert.equal(claimed?.recipient, user!.email);
    const held = await run(two);
    assert.equal(held.ran && held.report.sent, 0, 'the lease holds it');
    one.clock.advance(mailClaimLeaseMs);
    const lapsed = await run(two);
    assert.equal(lapsed.ran && lapsed.report.sent, 1);
    assert.equal(sentTo(user!).length, 1);
  });

  it('a graceful stop sends the mail in hand and leaves the rest to another instance', async () => {
    const stoppingMail = new SlowCapturedMail();
    const stopping = await createTestApp({
      mailDelivery: 'queue',
      database: other.database,
      clock: one.clock,
      deps: { mailer: stoppingMail },
    });
    try {
      const users = await register(3);
      stoppingMail.hold();
      const running = run(stopping);
      await waitFor('the first hand-over', () => stoppingMail.begun === 1);
      await stopping.services.platform.jobs.stop();
      stoppingMail.open();
      const stopped = await running;
      assert.equal(stopped.ran && stopped.report.sent, 1, 'the mail in hand was sent, no other was taken');
      assert.equal((await run(stopping)).ran && stoppingMail.begun, 1, 'a stopped instance sends nothing more');

      const next = await run(two);
      assert.equal(next.ran && next.report.sent, 2);
      for (const user of users)
        assert.equal(sentTo(user).length + stoppingMail.sent.filter((mail) => mail.to === user.email).length, 1);
    } finally {
      await stopping.close();
    }
  });

  it('with the queue running, a commit that filed mail files a run of the job', async () => {
    await one.services.platform.jobs.start({
      retryDelaySeconds: 1,
      pollingIntervalSeconds: 0.5,
      cronIntervalSeconds: 1,
    });
    try {
      const [user] = await register(1);
      const mail = await waitFor('the mail sent by the queued run', () => sentTo(user!)[0]);
      assert.equal(mail.to, user!.email);
    } finally {
      await one.services.platform.jobs.stop();
    }
  });
});
