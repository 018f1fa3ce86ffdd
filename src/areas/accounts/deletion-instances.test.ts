/**
 * A confirmed account deletion ends the account's sessions on every instance, as logout-all does: the
 * other instance, which has the token cached, refuses it once the broadcast arrives.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { openAnotherInstance, openTestDatabase } from '../../../test/helpers/database.ts';
import { createUser, strongPassword } from '../../../test/helpers/factories.ts';
import { instanceBroadcast } from '../../../test/helpers/instance-broadcast.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { LocalBroadcast } from '../../adapters/broadcast/index.ts';
import type { Database } from '../../platform/db/database.ts';

describe('account deletion across instances', () => {
  let one: TestApp;
  let two: TestApp;
  let second: { close(): Promise<void> };
  let database: Database;
  before(async () => {
    const shared = new LocalBroadcast();
    database = await openTestDatabase();
    const other = await openAnotherInstance(database);
    second = other;
    one = await createTestApp({ database, deps: { broadcast: await instanceBroadcast(database, shared) } });
    two = await createTestApp({
      database: other.database,
      clock: one.clock,
      deps: { broadcast: await instanceBroadcast(other.database, shared) },
    });
  });
  after(async () => {
    await two.close();
    await one.close();
    await second.close();
    await database.close();
  });

  const me = async (t: TestApp, token: string) =>
    (await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode;

  it('confirming on one instance ends the sessions cached on the other', async () => {
    const user = await createUser(one);
    assert.equal(await me(two, user.token), 200, 'the other instance has it cached');
    const asked = await one.request({
      method: 'DELETE',
      url: '/api/users/me',
      token: user.token,
      body: { password: strongPassword },
    });
    assert.equal(asked.statusCode, 202);
    await one.services.areas.accounts.mailFlows.drain();
    const token = /tmd_[A-Za-z0-9_-]+/.exec(one.mail.last(user.email)!.text)![0];
    const confirmed = await two.request({ method: 'POST', url: '/api/account/deletion/confirm', body: { token } });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal(await me(two, user.token), 401, 'at once where it was confirmed');
    await waitFor('the revocation on the first instance', async () => (await me(one, user.token)) === 401);
  });
});
