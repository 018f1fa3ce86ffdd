/**
 * The mail server down for a while, then up, under two instances of the real server: requests answer
 * as usual and their mail waits in the outbox, which the operator sees in GET /admin/stats; once the
 * server is back and the runbook followed (docs/operations.md, Mail outbox), both instances flushing
 * at once deliver every mail exactly once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { type Instances, instancesUnavailable, startInstances } from '../helpers/instances.ts';
import { registerThrough, type ServerProcess } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.ts';

const skip = instancesUnavailable();

describe('SMTP down for a while, then up, under two instances', { skip: skip ?? false }, () => {
  let sink: SmtpSink;
  let instances: Instances;
  let servers: ServerProcess[];
  const addresses = Array.from({ length: 6 }, (_, i) => `person${i}@example.test`);
  /** What GET /admin/stats says of the outbox now (its snapshot computed afresh: POST /admin/jobs/flush/stats). */
  const mailCounts = async () => {
    assert.equal((await servers[0]!.call('POST', '/admin/jobs/flush/stats', { admin: true })).status, 200);
    return (await servers[0]!.call('GET', '/admin/stats', { admin: true })).json.data.attributes.counts.mail;
  };

  before(async () => {
    sink = await startSmtpSink();
    instances = await startInstances([{}, {}], { SMTP_URL: sink.url, LOG_LEVEL: 'info' });
    servers = instances.servers;
  });

  after(async () => {
    await instances?.close();
    await sink?.close();
  });

  it('answers as usual while the mail server is down, and the mail waits', async () => {
    sink.refuse(true);
    for (const [index, address] of addresses.entries()) await registerThrough(servers[index % 2]!, address);
    // Each registration's commit filed a run of the job (and it runs every minute): every mail is
    // tried once, and waits.
    const tries = () =>
      servers.reduce((sum, server) => sum + (server.log(200_000).match(/"event":"mail.sendFailed"/g)?.length ?? 0), 0);
    await waitFor('every mail tried once', () => tries() >= addresses.length, 90_000);
    const counts = await mailCounts();
    assert.equal(counts.pending, addresses.length);
    assert.equal(counts.sent, 0);
    assert.equal(sink.messages.length, 0);
  });

  it('once it is up, flushing on both instances at once delivers every mail exactly once', async () => {
    sink.refuse(false);
    // The runbook: what waits for its next attempt is made due now, then the job is run.
    await instances.database.db.execute(sql`UPDATE mail_outbox SET next_attempt_at = now() WHERE status = 'pending'`);
    const flushed = await Promise.all(
      servers.map((server) => server.call('POST', '/admin/jobs/flush/mail-outbox', { admin: true })),
    );
    for (const answer of flushed) assert.equal(answer.status, 200, JSON.stringify(answer.json));
    await waitFor('every mail delivered', async () => ((await mailCounts()).sent === addresses.length ? true : null));

    const recipients = sink.messages.flatMap((message) => message.to).sort();
    assert.deepEqual(recipients, [...addresses].sort(), 'each person got one mail');
    const ids = new Set(sink.messages.map((message) => message.headers['message-id']));
    assert.equal(ids.size, addresses.length);
    assert.equal((await mailCounts()).pending, 0);
  });
});
