/**
 * Delivery health (docs/operations.md, Delivery health): deliveries to a domain that does not answer
 * are counted as consecutive failures; after 5 over an hour the domain is backed off (its deliveries
 * held, not sent) and shown so to operators with its last failure; the first delivery due after the
 * back-off is the probe, whose success clears the domain. A domain failing for 7 days has its held
 * deliveries dropped. The failing domain is 127.0.0.3, where nothing listens until the test starts a
 * server there.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { adminToken, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { type FederatedTest, queued, queueNoteTo, startFederatedTest } from '../../../test/helpers/fediverse-inbox.ts';
import { freePort } from '../../../test/helpers/processes.ts';
import { failingForMs, failuresToBackOff, firstBackOffMs, giveUpAfterMs } from './delivery-health.service.ts';

const minutes = (n: number) => n * 60_000;

describe('federation: delivery health', () => {
  let fed: FederatedTest;
  let t: TestApp;
  let alice: TestUser;
  let port: number;
  let server: Server | null = null;
  const received: string[] = [];
  /** What the inbox at 127.0.0.3 answers once it listens. */
  let status = 202;

  before(async () => {
    fed = await startFederatedTest();
    t = fed.t;
    alice = await createUser(t, { username: 'alice' });
    port = await freePort();
  });
  after(async () => {
    await new Promise((resolve) => (server === null ? resolve(null) : server.close(resolve)));
    await fed.close();
  });

  const inbox = () => `http://127.0.0.3:${port}/users/dan/inbox`;

  /** A Create(Note) from alice to dan at 127.0.0.3, through Fedify's queue. */
  const sendNote = (text: string) => queueNoteTo(t, alice.id, `http://127.0.0.3:${port}/users/dan`, inbox(), text);

  const runQueue = () => t.services.platform.jobs.run('federation-queue');

  async function domain() {
    const response = await t.request({ method: 'GET', url: '/admin/federation/domains', token: adminToken });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data.find((row: { id: string }) => row.id === '127.0.0.3')?.attributes;
  }

  it('counts consecutive failures, backs the domain off after 5 over an hour, holds its deliveries and shows it', async () => {
    await sendNote('first');
    await runQueue();
    let shown = await domain();
    assert.equal(shown.state, 'failing');
    assert.equal(shown.consecutiveFailures, 1);
    assert.notEqual(shown.lastError, null);
    assert.equal(shown.lastSuccessAt, null);
    const failingSince = shown.failingSince;

    // Fedify retries the delivery within seconds; each retry that fails counts. Four more, 20 minutes apart.
    for (let failure = 2; failure <= failuresToBackOff; failure += 1) {
      t.clock.advance(minutes(20));
      await runQueue();
      shown = await domain();
      assert.equal(shown.consecutiveFailures, failure);
      assert.equal(shown.failingSince, failingSince);
    }
    assert.ok(minutes(20) * (failuresToBackOff - 1) >= failingForMs);
    assert.equal(shown.state, 'backedOff');
    const retryAt = Date.parse(shown.retryAt);
    assert.equal(retryAt - Date.parse(shown.lastFailureAt), firstBackOffMs);

    // While backed off, nothing is attempted: the retry and a new delivery wait in the queue.
    await sendNote('second');
    t.clock.advance(minutes(30));
    await runQueue();
    shown = await domain();
    assert.equal(shown.consecutiveFailures, failuresToBackOff, 'no delivery was attempted');
    assert.equal(await queued(t), 2, 'both deliveries are held');
  });

  it('lets the deliveries through once the back-off ends; a success clears the domain', async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received.push(request.url ?? '');
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.3', resolve));
    t.clock.advance(firstBackOffMs);
    await runQueue();
    const shown = await domain();
    assert.equal(shown.state, 'ok');
    assert.equal(shown.consecutiveFailures, 0);
    assert.equal(shown.retryAt, null);
    assert.notEqual(shown.lastSuccessAt, null);
    assert.notEqual(shown.lastFailureAt, null, 'the last failure stays shown');
    assert.deepEqual(received, ['/users/dan/inbox', '/users/dan/inbox'], 'both held deliveries arrived');
    assert.equal(await queued(t), 0);
  });

  it('does not ask again an inbox that refuses the activity itself (403), as Mastodon does not', async () => {
    const before = await domain();
    status = 403;
    received.length = 0;
    t.clock.advance(minutes(1));
    await sendNote('refused');
    await runQueue();
    const attempts = received.length;
    assert.ok(attempts > 0, 'the delivery was attempted');
    t.clock.advance(minutes(30));
    await runQueue();
    assert.equal(received.length, attempts, 'not retried');
    assert.equal(await queued(t), 0, 'nothing left waiting');
    const after = await domain();
    assert.equal(after.lastSuccessAt, before.lastSuccessAt, 'a refusal is no success');
    assert.equal(after.consecutiveFailures, 0, 'nor a failure of the domain');
    status = 202;
  });

  it("counts neither way an inbox's other refusals (404, 410 Gone of a deleted account); 429 and 5xx are failures", async () => {
    const before = await domain();
    for (const refusal of [400, 401, 404, 410, 422]) {
      status = refusal;
      t.clock.advance(minutes(1));
      await sendNote(`refused with ${refusal}`);
      await runQueue();
      const shown = await domain();
      assert.equal(shown.lastSuccessAt, before.lastSuccessAt, `${refusal} is no success`);
      assert.equal(shown.consecutiveFailures, 0, `${refusal} is no failure of the domain`);
    }
    // Fedify retries these (the retry of the 429 meets the 503 too): each attempt counts.
    let failures = 0;
    for (const failure of [429, 503]) {
      status = failure;
      t.clock.advance(minutes(1));
      await sendNote(`failed with ${failure}`);
      await runQueue();
      const shown = await domain();
      assert.ok(shown.consecutiveFailures > failures, `${failure} counts`);
      failures = shown.consecutiveFailures;
      assert.match(shown.lastError, new RegExp(String(failure)));
    }
    status = 202;
    t.clock.advance(minutes(10));
    for (let run = 0; run < 3 && (await queued(t)) > 0; run += 1) {
      await runQueue();
      t.clock.advance(minutes(10));
    }
    const cleared = await domain();
    assert.equal(cleared.consecutiveFailures, 0, 'the retries accepted clear the domain');
    assert.notEqual(cleared.lastSuccessAt, before.lastSuccessAt);
  });

  it('drops the deliveries held for a domain that has failed for 7 days', async () => {
    const { deliveryHealth } = t.services.areas.federation;
    const start = t.clock.now().getTime();
    // Failures spread over 7 days (the service as the queue calls it), the last one a back-off ago.
    for (let failure = 0; failure < failuresToBackOff; failure += 1) {
      await deliveryHealth.recordFailure('gone.example', 'connect ECONNREFUSED');
      t.clock.advance(failure === failuresToBackOff - 2 ? giveUpAfterMs - minutes(1) : minutes(1));
    }
    t.clock.advance(minutes(5));
    assert.ok(t.clock.now().getTime() - start >= giveUpAfterMs);
    assert.deepEqual(await deliveryHealth.decide('gone.example'), { type: 'drop' });
    const shown = (
      await t.request({ method: 'GET', url: '/admin/federation/domains', token: adminToken })
    ).json.data.find((row: { id: string }) => row.id === 'gone.example');
    assert.equal(shown.attributes.state, 'unavailable');
  });
});
