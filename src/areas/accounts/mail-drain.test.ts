/** A graceful stop waits for account mails still being handed over (MailFlowsService.drain). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { strongPassword } from '../../../test/helpers/factories.ts';
import type { Mailer, MailMessage } from '../../adapters/mail/index.ts';

/** A mail server that accepts only when told to. */
class SlowMailer implements Mailer {
  readonly delivered: MailMessage[] = [];
  #release!: () => void;
  readonly #gate = new Promise<void>((resolve) => {
    this.#release = resolve;
  });
  async send(message: MailMessage) {
    await this.#gate;
    this.delivered.push(message);
  }
  release() {
    this.#release();
  }
}

describe('account mails at shutdown', () => {
  let t: TestApp;
  const mailer = new SlowMailer();
  before(async () => {
    t = await createTestApp({ deps: { mailer } });
  });
  after(() => t.close());

  it('answers before the mail is handed over, and drain() waits for it', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { email: 'slow@example.test', password: strongPassword },
    });
    assert.equal(res.statusCode, 201);
    assert.equal(mailer.delivered.length, 0, 'the answer did not wait for the mail server');
    let drained = false;
    const draining = t.services.areas.accounts.mailFlows.drain().then(() => {
      drained = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(drained, false, 'drain waits while the mail is in flight');
    mailer.release();
    await draining;
    assert.deepEqual(
      mailer.delivered.map((mail) => mail.to),
      ['slow@example.test'],
    );
  });
});
