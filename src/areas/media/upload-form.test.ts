/** Upload bodies the multipart parser cannot read are 400, never 500, and store nothing. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { multipartForm, storedKeys } from '../../../test/helpers/media-uploads.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';

describe('malformed upload bodies', () => {
  let t: TestApp;
  let user: TestUser;
  before(async () => {
    t = await createTestApp();
    user = await createUser(t);
  });
  after(() => t.close());

  it('answers 400 badRequest to a multipart body without a boundary, cut short, or not multipart at all', async () => {
    const form = multipartForm([{ name: 'file', value: await makeJpeg({ width: 32, height: 32 }), filename: 'a.jpg' }]);
    const cases: Array<[string, Buffer | string, string]> = [
      ['no boundary', 'abc', 'multipart/form-data'],
      ['cut short', form.payload.subarray(0, form.payload.length - 60), form.headers['content-type']!],
      ['garbage', 'garbage garbage', 'multipart/form-data; boundary=abc'],
    ];
    for (const [name, payload, contentType] of cases) {
      const res = await t.request({
        method: 'POST',
        url: '/api/users/me/media',
        token: user.token,
        payload,
        headers: { 'content-type': contentType },
      });
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      assert.equal(res.json.errors[0].code, 'badRequest', name);
      assert.match(res.json.errors[0].detail, /multipart body is malformed/, name);
    }
    const list = await t.request({ method: 'GET', url: '/api/users/me/media', token: user.token });
    assert.equal(list.json.data.length, 0, 'no row');
    assert.deepEqual(await storedKeys(t.deps.storage), [], 'no file');
  });

  it('answers 400 to a description holding the NUL character, leaving no row and no file', async () => {
    const form = multipartForm([
      { name: 'description', value: 'sunset\u0000' },
      { name: 'file', value: await makeJpeg({ width: 32, height: 32 }), filename: 'a.jpg' },
    ]);
    const res = await t.request({
      method: 'POST',
      url: '/api/users/me/media',
      token: user.token,
      payload: form.payload,
      headers: form.headers,
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json.errors[0].code, 'badRequest');
    const list = await t.request({ method: 'GET', url: '/api/users/me/media', token: user.token });
    assert.equal(list.json.data.length, 0);
    assert.deepEqual(await storedKeys(t.deps.storage), []);
  });

  it('refuses a JPEG cut short as corrupt (422) and a blank description (422), and counts characters, not bytes', async () => {
    const jpeg = await makeJpeg({ width: 64, height: 48 });
    const send = (parts: Parameters<typeof multipartForm>[0]) => {
      const form = multipartForm(parts);
      return t.request({
        method: 'POST',
        url: '/api/users/me/media',
        token: user.token,
        payload: form.payload,
        headers: form.headers,
      });
    };
    const cut = await send([{ name: 'file', value: jpeg.subarray(0, 200), filename: 'a.jpg' }]);
    assert.equal(cut.statusCode, 422, cut.body);
    assert.equal(cut.json.errors[0].code, 'corruptImage');
    const blank = await send([
      { name: 'description', value: '   ' },
      { name: 'file', value: jpeg, filename: 'a.jpg' },
    ]);
    assert.equal(blank.statusCode, 422);
    assert.equal(blank.json.errors[0].source.pointer, '/description');
    const euros = await send([
      { name: 'description', value: '€'.repeat(1500) },
      { name: 'file', value: jpeg, filename: 'a.jpg' },
    ]);
    assert.equal(euros.statusCode, 201, '1500 characters fit the 2000-character rule, whatever their bytes');
  });
});
