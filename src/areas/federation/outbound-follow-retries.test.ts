/**
 * A pending remote follow is not left waiting forever (docs/api.md, Federation, Following remote
 * accounts): while the remote server answers nothing, the job federation-queue sends the same Follow
 * again 1 hour, 6 hours, 1 day and 3 days after each send, then, 3 days after the last, expires the
 * request (an Undo is sent; the local user sees it no longer requested). An Accept stops the retries;
 * asking again restarts them. The remote server is the loopback stand-in, which never answers by itself.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import {
  deliver,
  drainFederationQueue,
  type FederatedTest,
  federatedPublicUrl as publicUrl,
  requestRemoteFollow,
  startFederatedTest,
} from '../../../test/helpers/fediverse-inbox.ts';
import type { ReceivedActivity, RemoteActor } from '../../../test/support/fediverse-server.ts';
import { followRetryDelaysMs } from './outbound-follow-retries.ts';

describe('federation: a pending remote follow is retried, then expires', () => {
  let fed: FederatedTest;
  let carol: TestUser;

  before(async () => {
    fed = await startFederatedTest();
    carol = await createUser(fed.t, { username: 'carol' });
  });
  after(() => fed.close());

  const received = (actor: RemoteActor, type: string): ReceivedActivity[] =>
    fed.remote.received.filter((r) => r.inbox === `/users/${actor.username}/inbox` && r.activity.type === type);
  const runJob = async () => {
    await fed.t.services.platform.jobs.run('federation-queue');
    await drainFederationQueue(fed.t);
  };
  const remoteFollows = async () => {
    const response = await fed.t.request({ method: 'GET', url: '/api/users/me/following/remote', token: carol.token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data.map((row: { id: string }) => row.id);
  };
  const ask = async (actor: RemoteActor) => (await requestRemoteFollow(fed.t, carol, fed.remote, actor)).shadowId;

  it('sends the same Follow again on the schedule, then expires the request with an Undo', async () => {
    const ana = await ask(fed.ana);
    const [first] = received(fed.ana, 'Follow');
    assert.ok(first);
    // Nothing before a delay has passed.
    fed.t.clock.advance(followRetryDelaysMs[0] - 60_000);
    await runJob();
    assert.equal(received(fed.ana, 'Follow').length, 1);
    for (const [sent, delay] of followRetryDelaysMs.slice(0, -1).entries()) {
      fed.t.clock.advance(sent === 0 ? 60_000 : delay);
      await runJob();
      const follows = received(fed.ana, 'Follow');
      assert.equal(follows.length, sent + 2, `send ${sent + 2}`);
      assert.equal(follows.at(-1)?.activity.id, first.activity.id, 'the same Follow, under its id');
      assert.deepEqual(await remoteFollows(), [ana], 'still pending');
    }
    assert.equal(received(fed.ana, 'Undo').length, 0);
    fed.t.clock.advance(followRetryDelaysMs.at(-1)! - 60_000);
    await runJob();
    assert.deepEqual(await remoteFollows(), [ana], 'still awaited until the last delay ends');
    fed.t.clock.advance(60_000);
    await runJob();
    assert.equal(received(fed.ana, 'Follow').length, followRetryDelaysMs.length, 'no more Follow');
    const [undo] = received(fed.ana, 'Undo');
    assert.equal((undo?.activity.object as { id?: string } | undefined)?.id, first.activity.id);
    assert.deepEqual(await remoteFollows(), [], 'no longer requested');
    const relationship = await fed.t.services.areas.follows.follows.relationship(carol.id, ana);
    assert.equal(relationship.requested, null);
    assert.equal(relationship.following, null);
  });

  it('stops retrying once accepted, and restarts the schedule when asked again while pending', async () => {
    const bea = await ask(fed.bea);
    fed.t.clock.advance(followRetryDelaysMs[0] + followRetryDelaysMs[1] - 60_000);
    await runJob();
    assert.equal(received(fed.bea, 'Follow').length, 2, 'the first retry');
    await ask(fed.bea);
    assert.equal(received(fed.bea, 'Follow').length, 3, 'asked again: sent at once');
    fed.t.clock.advance(60_000);
    await runJob();
    assert.equal(received(fed.bea, 'Follow').length, 3, 'the schedule restarted: next retry an hour after');
    fed.t.clock.advance(followRetryDelaysMs[0]);
    await runJob();
    const follows = received(fed.bea, 'Follow');
    assert.equal(follows.length, 4);

    const accepted = await deliver(
      fed.t,
      await fed.remote.answerFollow(fed.bea, follows.at(-1)!, 'Accept', `${publicUrl}/ap/users/${carol.id}/inbox`),
    );
    assert.equal(accepted.statusCode, 202, accepted.body);
    await drainFederationQueue(fed.t);
    fed.t.clock.advance(30 * 24 * 3600_000);
    await runJob();
    assert.equal(received(fed.bea, 'Follow').length, 4, 'nothing sent once accepted');
    assert.equal(received(fed.bea, 'Undo').length, 0);
    const relationship = await fed.t.services.areas.follows.follows.relationship(carol.id, bea);
    assert.notEqual(relationship.following, null);
  });
});
