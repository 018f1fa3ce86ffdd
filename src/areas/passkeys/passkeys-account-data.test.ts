/**
 * What else sees a user's passkeys: operators count them (never their keys), the data export lists
 * them by name and date (never the key nor the credential id), and an erased account keeps none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { readZip } from '../../../test/helpers/zip.ts';
import { SoftwareAuthenticator } from '../../../test/support/software-authenticator.ts';

const origin = 'https://travel.example.test';

describe('passkeys in the admin view, the export and the erasure', () => {
  let t: TestApp;
  let ada: TestUser;
  const authenticator = new SoftwareAuthenticator(origin);
  before(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: origin } });
    ada = await createUser(t);
    for (const name of ['Laptop', 'Phone']) {
      const options = await t.request({
        method: 'POST',
        url: '/api/users/me/passkeys/options',
        token: ada.token,
        body: {},
      });
      const credential = authenticator.create(options.json.data.attributes.publicKey);
      const res = await t.request({
        method: 'POST',
        url: '/api/users/me/passkeys',
        token: ada.token,
        body: { name, credential },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
  });
  after(() => t.close());

  it('shows operators how many passkeys the user has, never a key', async () => {
    const res = await t.request({ method: 'GET', url: `/admin/users/${ada.hex}`, token: adminToken });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json.data.attributes.counts.passkeys, 2);
    const [credentialId] = authenticator.credentials.keys();
    assert.equal(res.body.includes(credentialId!), false);
  });

  it('lists them in the data export by name and dates, without key or credential id', async () => {
    const res = await t.request({ method: 'GET', url: '/api/users/me/export', token: ada.token });
    assert.equal(res.statusCode, 200, res.body);
    const entries = await readZip(res.rawPayload);
    const rows = JSON.parse(entries.get('passkeys.json')!.toString('utf8'));
    assert.deepEqual(rows.map((row: { name: string }) => row.name).sort(), ['Laptop', 'Phone']);
    assert.equal(rows[0].createdAt, '2026-11-21T12:00:00.000+00:00');
    assert.equal(rows[0].lastUsedAt, null);
    for (const row of rows) assert.deepEqual(Object.keys(row).includes('publicKey'), false);
    const text = entries.get('passkeys.json')!.toString('utf8');
    for (const credentialId of authenticator.credentials.keys()) assert.equal(text.includes(credentialId), false);
  });

  it('erases them with the account: the authenticator signs in no more', async () => {
    const erased = await t.request({ method: 'POST', url: `/admin/users/${ada.hex}/anonymize`, token: adminToken });
    assert.equal(erased.statusCode, 200, erased.body);
    const options = await t.request({ method: 'POST', url: '/api/auth/passkey/options' });
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/passkey',
      body: { credential: authenticator.get(options.json.data.attributes.publicKey) },
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json.errors[0].meta.reason, 'credential');
  });
});
