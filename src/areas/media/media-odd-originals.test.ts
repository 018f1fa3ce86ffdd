/** Originals at the edges of what encoders take: every advertised URL serves. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { makePng } from '../../../test/support/test-images.ts';

describe('odd originals', () => {
  let t: TestApp;
  let user: TestUser;
  before(async () => {
    t = await createTestApp();
    user = await createUser(t);
  });
  after(() => t.close());

  const get = (url: string) => t.request({ method: 'GET', url, headers: { accept: 'application/json' } });

  it('serves a panorama wider than WebP allows, fitted to 16383 px', async () => {
    const res = await upload(t, '/api/users/me/media', user.token, await makePng({ width: 17000, height: 4 }));
    assert.equal(res.statusCode, 201, res.body);
    const hex = res.json.data.attributes.hex;
    const webp = await get(`/media/${hex}.webp`);
    assert.equal(webp.statusCode, 200);
    assert.equal((await sharp(webp.rawPayload).metadata()).width, 16383);
    assert.equal((await get(`/media/${hex}.png`)).statusCode, 200);
  });

  it('offers a GIF original as JPEG, at a URL that serves', async () => {
    const gif = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .gif()
      .toBuffer();
    const res = await upload(t, '/api/users/me/media', user.token, gif);
    assert.equal(res.statusCode, 201, res.body);
    const { original } = res.json.data.attributes.urls;
    assert.match(original, /\.jpg$/);
    assert.equal((await get(original)).statusCode, 200);
  });
});
