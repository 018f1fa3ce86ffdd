/**
 * Two-factor authentication for operators and in a user's data: the admin user view says whether it
 * is on (never the secret), `users:reset-two-factor` turns it off (audited, the owner mailed), the
 * export lists it (on since when; never the secret or the codes) and the devices, and anonymization
 * removes it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { cliTestContext } from '../../../test/helpers/cli.ts';
import { createUser, strongPassword } from '../../../test/helpers/factories.ts';
import { enableTwoFactor } from '../../../test/helpers/two-factor.ts';
import { readZip } from '../../../test/helpers/zip.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { usersResetTwoFactorCommand } from './users-reset-two-factor.command.ts';

describe('two-factor authentication for operators and in user data', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const admin = (method: 'GET' | 'POST', url: string) => t.request({ method, url, token: adminToken });
  const login = (username: string) =>
    t.request({ method: 'POST', url: '/api/auth/login', body: { login: username, password: strongPassword } });

  it('shows in the admin user view whether two-factor is on, never its secret', async () => {
    const user = await createUser(t);
    const off = await admin('GET', `/admin/users/${user.hex}`);
    assert.equal(off.statusCode, 200, off.body);
    assert.deepEqual(off.json.data.attributes.twoFactor, { enabled: false, enabledAt: null });
    const device = await enableTwoFactor(t, user.token);
    const on = await admin('GET', `/admin/users/${user.hex}`);
    assert.equal(on.json.data.attributes.twoFactor.enabled, true);
    assert.match(on.json.data.attributes.twoFactor.enabledAt, /\+00:00$/);
    assert.equal(on.body.includes(device.secret), false);
    for (const code of device.recoveryCodes) assert.equal(on.body.includes(code), false);
  });

  it('users:reset-two-factor turns it off, is audited and tells the owner', async () => {
    const user = await createUser(t);
    await enableTwoFactor(t, user.token);
    assert.equal((await login(user.username)).json.errors[0].code, 'twoFactorRequired');
    const { context, output } = cliTestContext(t);
    await usersResetTwoFactorCommand.run(context, [user.username]);
    assert.deepEqual(output, [`${user.id} two-factor authentication turned off`]);
    assert.equal((await login(user.username)).statusCode, 200, 'a password alone signs in again');
    assert.equal(t.mail.sent.filter((mail) => mail.to === user.email && /was reset/.test(mail.subject)).length, 1);
    const audit = await admin('GET', '/admin/audit?action=user.resetTwoFactor');
    const entry = audit.json.data.find((row: any) => row.attributes.target?.id === user.id);
    assert.equal(entry.attributes.actor, 'cli');

    await usersResetTwoFactorCommand.run(context, [user.hex]);
    assert.equal(output[1], `${user.id} had no two-factor authentication`);
    const again = await admin('GET', '/admin/audit?action=user.resetTwoFactor');
    assert.equal(
      again.json.data.filter((row: any) => row.attributes.target?.id === user.id).length,
      1,
      'nothing to audit',
    );
    await assert.rejects(usersResetTwoFactorCommand.run(context, []), /one <user> is required/);
    await assert.rejects(usersResetTwoFactorCommand.run(context, ['nobody_at_all_here']));
  });

  it('exports whether two-factor is on and since when, and the devices, never the secret or codes', async () => {
    const user = await createUser(t);
    const device = await enableTwoFactor(t, user.token);
    const res = await t.request({ method: 'GET', url: '/api/users/me/export', token: user.token });
    assert.equal(res.statusCode, 200, res.body);
    const entries = await readZip(res.rawPayload);
    const twoFactor = JSON.parse(entries.get('two-factor.json')!.toString('utf8'));
    assert.equal(twoFactor.length, 1);
    assert.equal(twoFactor[0].enabled, true);
    assert.equal(twoFactor[0].unusedRecoveryCodes, 10);
    assert.ok(twoFactor[0].enabledAt);
    const devices = JSON.parse(entries.get('sign-in-devices.json')!.toString('utf8'));
    assert.equal(devices.length, 1);
    assert.equal(devices[0].network, '127.0.0.0/24');
    const everything = [...entries.values()].map((entry) => entry.toString('latin1')).join('\n');
    assert.equal(everything.includes(device.secret), false, 'never the secret');
    for (const code of device.recoveryCodes) assert.equal(everything.includes(code), false);
  });

  it('anonymization removes two-factor and the devices', async () => {
    const user = await createUser(t);
    await enableTwoFactor(t, user.token);
    const res = await t.request({ method: 'POST', url: `/admin/users/${user.hex}/anonymize`, token: adminToken });
    assert.equal(res.statusCode, 200, res.body);
    const left = await queryRows<{ n: number }>(
      t.deps.database.db,
      sql`SELECT (SELECT count(*)::int FROM user_two_factor WHERE user_id = ${user.id})
               + (SELECT count(*)::int FROM two_factor_recovery_codes WHERE user_id = ${user.id})
               + (SELECT count(*)::int FROM sign_in_devices WHERE user_id = ${user.id}) AS n`,
    );
    assert.equal(left[0]!.n, 0);
  });
});
