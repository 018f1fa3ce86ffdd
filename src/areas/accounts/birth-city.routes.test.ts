import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { cityId } from '../geography/reference-data/ids.ts';

const reykjavik = cityId(3413829);
const lyon = cityId(2996944);

describe('birth city (settings, GET /api/auth/me)', () => {
  let t: TestApp;
  let ada: TestUser;
  const patch = (body: unknown, token = ada.token) =>
    t.request({ method: 'PATCH', url: '/api/users/me/settings', token, body });
  const me = async () =>
    (await t.request({ method: 'GET', url: '/api/auth/me', token: ada.token })).json.data.attributes;

  before(async () => {
    t = await createTestApp();
    ada = await createUser(t);
  });
  after(() => t.close());

  it('has none until set; is set, shown with its name and country by /api/auth/me, and cleared', async () => {
    assert.equal(
      (await t.request({ method: 'GET', url: '/api/users/me/settings', token: ada.token })).json.data.attributes
        .birthCityId,
      null,
    );
    assert.equal((await me()).birthCity, null);

    const set = await patch({ birthCityId: reykjavik });
    assert.equal(set.statusCode, 200);
    assert.equal(set.json.data.attributes.birthCityId, reykjavik);
    const shown = await me();
    assert.equal(shown.birthCityId, reykjavik);
    assert.deepEqual(shown.birthCity, { id: reykjavik, name: 'Reykjavík', countryCode: 'IS' });
    assert.equal(await t.services.areas.accounts.settings.birthCityId(ada.id), reykjavik);

    const upper = await patch({ birthCityId: lyon.toUpperCase() });
    assert.equal(upper.json.data.attributes.birthCityId, lyon, 'stored in canonical form');
    assert.deepEqual((await me()).birthCity, { id: lyon, name: 'Lyon', countryCode: 'FR' });

    const other = await patch({ marketingEmails: true });
    assert.equal(other.json.data.attributes.birthCityId, lyon, 'another setting leaves it as it is');

    const cleared = await patch({ birthCityId: null });
    assert.equal(cleared.json.data.attributes.birthCityId, null);
    assert.equal((await me()).birthCity, null);
    assert.equal(await t.services.areas.accounts.settings.birthCityId(ada.id), null);
  });

  it('refuses an unknown or malformed city with a pointer, changing nothing', async () => {
    await patch({ birthCityId: reykjavik });
    for (const birthCityId of ['00000000-0000-4000-8000-000000000000', 'reykjavik', 42]) {
      const refused = await patch({ birthCityId, marketingEmails: false });
      assert.equal(refused.statusCode, 422, JSON.stringify(refused.json));
      assert.equal(refused.json.errors[0].code, 'validationFailed');
      assert.equal(refused.json.errors[0].source.pointer, '/birthCityId');
    }
    assert.equal((await me()).birthCity?.id, reykjavik);
  });

  it('asks for a token', async () => {
    const anonymous = await t.request({ method: 'PATCH', url: '/api/users/me/settings', body: { birthCityId: null } });
    assert.equal(anonymous.statusCode, 401);
  });
});
