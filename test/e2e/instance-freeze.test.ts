/**
 * One instance frozen (SIGSTOP) while it holds a job run and the mail that run claimed, in the middle
 * of handing it to the mail server; then resumed (SIGCONT). The other instance takes the mail over
 * once the claim's lease has ended and delivers it; the frozen one, resumed, finds its hand-over
 * failed and the mail finished by the other: the mail arrives once.
 * The lease is 5 minutes (outbox-sender.ts `mailClaimLeaseMs`); the test ends it in the row, as those
 * minutes would, rather than wait for them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/rows.ts';
import { type Instances, instancesUnavailable, startInstances } from '../helpers/instances.ts';
import { registerThrough, type ServerProcess } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';

const skip = instancesUnavailable();
/** Each instance's envelope sender, which tells whose hand-over the mail server holds. */
const senders = ['one@example.test', 'two@example.test'];

describe('one instance frozen while it holds a job, then resumed', { skip: skip ?? false }, () => {
  let sink: SmtpSink;
  let instances: Instances;
  let frozen: ServerProcess;
  let other: ServerProcess;
  const address = 'frozen-mail@example.test';

  before(async () => {
    sink = await startSmtpSink();
    instances = await startInstances(
      senders.map((sender) => ({ MAIL_FROM: `Travel Media <${sender}>` })),
      { SMTP_URL: sink.url, LOG_LEVEL: 'info' },
    );
  });

  after(async () => {
    await instances?.close();
    await sink?.close();
  });

  const outboxRows = () =>
    queryRows<{ status: string; attempts: number }>(
      instances.database.db,
      sql`SELECT status, attempts FROM mail_outbox WHERE recipient = ${address}`,
    );
  /**
   * How many mails a run of the job sent, run now on `server`. A run the instance is already doing (its
   * queue's, or the resumed one finishing) makes the call skip as busy: it is asked again once that ends.
   */
  const flush = async (server: ServerProcess): Promise<number> => {
    const run = await waitFor('a run of mail-outbox not skipped as busy', async () => {
      const { json } = await server.call('POST', '/admin/jobs/flush/mail-outbox', { admin: true });
      return json.data.attributes.ran ? { sent: json.data.attributes.report.sent as number } : null;
    });
    return run.sent;
  };
  const delivered = () => sink.messages.filter((message) => message.to.includes(address));

  it('the other instance delivers the mail after the lease of the frozen one', async () => {
    sink.hold(true);
    await registerThrough(instances.servers[0]!, address);
    // Whichever instance ran the job the commit filed is now waiting for the mail server.
    const [held] = await waitFor(
      'a hand-over held by the mail server',
      () => (sink.held.length > 0 ? sink.held : null),
      60_000, // the queue's polling, or the job's minute schedule
    );
    const holder = senders.indexOf(held!.from);
    assert.ok(holder >= 0, `held from ${held!.from}`);
    frozen = instances.servers[holder]!;
    other = instances.servers[1 - holder]!;
    frozen.freeze();
    sink.hold(false);

    assert.equal(await flush(other), 0, 'the claim holds the mail while its lease runs');
    await instances.database.db.execute(
      sql`UPDATE mail_outbox SET claimed_until = now() WHERE recipient = ${address} AND claimed_until > now()`,
    );
    assert.equal(await flush(other), 1);
    assert.equal(delivered().length, 1);
    assert.deepEqual(await outboxRows(), [{ status: 'sent', attempts: 2 }]);
  });

  it('resumed, the frozen instance sends nothing twice and serves again', async () => {
    sink.dropHeld(); // the mail server gave up on the client that stopped talking
    frozen.resume();
    await waitFor('the resumed instance learns the mail was finished by the other', () =>
      /"event":"mail.finishedElsewhere"/.test(frozen.log(100_000)),
    );
    for (const server of [frozen, other]) assert.equal(await flush(server), 0);
    assert.equal(delivered().length, 1, 'the mail arrived once');
    assert.deepEqual(await outboxRows(), [{ status: 'sent', attempts: 2 }]);
    assert.equal((await frozen.call('GET', '/api/ping')).status, 200);
  });
});
