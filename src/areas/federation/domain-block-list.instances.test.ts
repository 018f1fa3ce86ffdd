/**
 * Two instances of the service on one database, each holding the operators' domain blocks in memory
 * (domain-block-list.ts): a block written through one takes effect there at once and on the other as
 * soon as the broadcast arrives (Redis pub/sub with REDIS_URL, else PostgreSQL NOTIFY, else in-process
 * on PGlite); an instance that lost the message follows within a minute; a purge empties it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, type TestApp } from '../../../test/helpers/app.ts';
import { openBroadcastingInstances } from '../../../test/helpers/instance-broadcast.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { heldForMs } from './domain-block-list.ts';

describe('domain blocks across instances', () => {
  let one: TestApp;
  let two: TestApp;
  let lossy: TestApp;
  let close: () => Promise<void>;
  before(async () => {
    ({ one, two, lossy, close } = await openBroadcastingInstances());
  });
  after(() => close());

  const severityOn = (t: TestApp, host: string) => t.services.areas.federation.domainBlocks.severityOf(host);
  const admin = (t: TestApp, method: 'POST' | 'DELETE', url: string, body?: object) =>
    t.request({ method, url, token: adminToken, ...(body ? { body } : {}) });

  it('a block written on one instance holds there at once and on the other once the broadcast arrives', async () => {
    for (const t of [one, two, lossy]) assert.equal(await severityOn(t, 'social.spam.example'), null, 'held: none');
    const blocked = await admin(one, 'POST', '/admin/federation/domain-blocks', {
      domain: 'spam.example',
      severity: 'reject',
    });
    assert.equal(blocked.statusCode, 201, blocked.body);
    assert.equal(await severityOn(one, 'social.spam.example'), 'reject', 'at once where it was written');
    await waitFor(
      'the block on the other instance',
      async () => (await severityOn(two, 'spam.example:443')) === 'reject',
    );

    const lifted = await admin(two, 'DELETE', '/admin/federation/domain-blocks/spam.example');
    assert.equal(lifted.statusCode, 204, lifted.body);
    assert.equal(await severityOn(two, 'spam.example'), null);
    await waitFor(
      'the lifted block on the first instance',
      async () => (await severityOn(one, 'spam.example')) === null,
    );
  });

  it('an instance that lost the message follows within a minute, or at once on a purge', async () => {
    assert.equal(await severityOn(lossy, 'noisy.example'), null);
    await admin(one, 'POST', '/admin/federation/domain-blocks', { domain: 'noisy.example', severity: 'silence' });
    assert.equal(await severityOn(lossy, 'noisy.example'), null, 'lost: the list it held');
    one.clock.advance(heldForMs);
    assert.equal(await severityOn(lossy, 'noisy.example'), 'silence', 'read again a minute later');

    await admin(one, 'POST', '/admin/federation/domain-blocks', { domain: 'rude.example', severity: 'reject' });
    assert.equal(await severityOn(lossy, 'rude.example'), null, 'lost again');
    const purged = await lossy.request({
      method: 'POST',
      url: '/admin/cache/purge',
      token: adminToken,
      body: { scope: 'federation' },
    });
    assert.equal(purged.statusCode, 200, purged.body);
    assert.equal(await severityOn(lossy, 'rude.example'), 'reject');
  });
});
