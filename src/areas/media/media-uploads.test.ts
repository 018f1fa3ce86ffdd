import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { storedKeys, upload } from '../../../test/helpers/media-uploads.ts';
import { startFakeS3Server } from '../../../test/support/fake-s3-server.ts';
import { makeJpeg, makePng, makePngClaimingSize } from '../../../test/support/test-images.ts';
import type { MediaStorage } from '../../adapters/storage/index.ts';
import { S3Storage } from '../../adapters/storage/s3-storage.ts';
import { EventBus } from '../../platform/events/domain-events.ts';
import { MediaRepository } from './media.repository.ts';
import { MediaUploadService } from './media-upload.service.ts';

const paris = { latitude: 48.8584, longitude: 2.2945 };

for (const backend of ['local files', 'S3'] as const) {
  describe(`media uploads (${backend})`, () => {
    let t: TestApp;
    let storage: MediaStorage;
    let ada: TestUser;
    let bob: TestUser;
    let cleanup = async () => {};
    before(async () => {
      if (backend === 'S3') {
        const server = await startFakeS3Server();
        const s3 = new S3Storage(server);
        cleanup = async () => {
          s3.destroy();
          await server.close();
        };
        t = await createTestApp({ deps: { storage: s3 } });
      } else {
        t = await createTestApp();
      }
      storage = t.deps.storage;
      ada = await createUser(t, { username: 'ada' });
      bob = await createUser(t, { username: 'bob' });
    });
    after(async () => {
      await t.close();
      await cleanup();
    });

    it('stores a JPEG post with its EXIF position and capture time, and lists it', async () => {
      const jpeg = await makeJpeg({
        width: 640,
        height: 480,
        gps: paris,
        takenAt: '2026:05:06 07:08:09',
        takenAtOffset: '+02:00',
      });
      const res = await upload(t, '/api/users/me/media', ada.token, jpeg, {
        description: 'Evening at the #Eiffel tower #paris',
      });
      assert.equal(res.statusCode, 201, res.body);
      const { data } = res.json;
      assert.equal(data.type, 'media');
      assert.equal(data.attributes.kind, 'post');
      assert.equal(data.attributes.width, 640);
      assert.equal(data.attributes.height, 480);
      assert.deepEqual(data.attributes.hashtags, ['eiffel', 'paris']);
      assert.ok(Math.abs(data.attributes.position.latitude - paris.latitude) < 1e-4);
      assert.ok(Math.abs(data.attributes.position.longitude - paris.longitude) < 1e-4);
      assert.equal(data.attributes.takenAt, '2026-05-06T05:08:09.000+00:00');
      assert.equal(data.attributes.locationPublic, true);
      assert.equal(data.attributes.urls.thumb, `/media/${data.attributes.hex}.webp?size=thumb`);
      assert.equal(data.relationships.owner.data.id, ada.id);
      assert.ok((await storedKeys(storage)).some((key) => key.includes(data.attributes.hex)));

      const mine = await t.request({ method: 'GET', url: '/api/users/me/media', token: ada.token });
      assert.equal(mine.statusCode, 200);
      assert.ok(mine.json.data.some((item: { id: string }) => item.id === data.id));
      const theirs = await t.request({ method: 'GET', url: `/api/users/${ada.hex}/media` });
      assert.equal(theirs.statusCode, 200);
      assert.equal(theirs.json.data[0].id, data.id);
      assert.equal(theirs.json.data[0].attributes.published, undefined, 'the public view has no owner-only fields');
    });

    it('hides the position from others when the owner publishes no location by default', async () => {
      const carol = await createUser(t, { username: `carol${backend === 'S3' ? 's3' : 'fs'}` });
      await updateUserRow(t, carol.id, { settings: { publishLocationByDefault: false } });
      const res = await upload(
        t,
        '/api/users/me/media',
        carol.token,
        await makeJpeg({ width: 64, height: 64, gps: paris }),
      );
      assert.equal(res.statusCode, 201);
      assert.equal(res.json.data.attributes.locationPublic, false);
      assert.notEqual(res.json.data.attributes.position, null, 'the owner still sees it');
      const publicList = await t.request({ method: 'GET', url: `/api/users/${carol.id}/media` });
      assert.equal(publicList.json.data[0].attributes.position, null);
      const override = await upload(
        t,
        '/api/users/me/media',
        carol.token,
        await makeJpeg({ width: 64, height: 64, gps: paris }),
        {
          locationPublic: 'true',
        },
      );
      assert.equal(override.json.data.attributes.locationPublic, true);
    });

    it('refuses bad uploads with the right 4xx and stores nothing', async () => {
      const before = await storedKeys(storage);
      const listBefore = await t.request({ method: 'GET', url: '/api/users/me/media?limit=100', token: bob.token });
      const cases: [string, Promise<ReturnType<typeof upload> extends Promise<infer R> ? R : never>, number, string][] =
        [
          [
            'text named .jpg',
            upload(t, '/api/users/me/media', bob.token, Buffer.from('not an image at all')),
            415,
            'unsupportedImage',
          ],
          ['no file part', upload(t, '/api/users/me/media', bob.token, null, { description: 'x' }), 422, 'fileMissing'],
          ['empty file', upload(t, '/api/users/me/media', bob.token, Buffer.alloc(0)), 422, 'fileMissing'],
          [
            'a bomb',
            upload(t, '/api/users/me/media', bob.token, await makePngClaimingSize({ width: 60000, height: 60000 })),
            413,
            'imageTooLarge',
          ],
          [
            'truncated',
            upload(
              t,
              '/api/users/me/media',
              bob.token,
              (await makeJpeg({ width: 400, height: 300 })).subarray(0, 2000),
            ),
            422,
            'corruptImage',
          ],
          [
            'over 20 MB',
            upload(t, '/api/users/me/media', bob.token, Buffer.alloc(20 * 1024 * 1024 + 1, 1)),
            413,
            'fileTooLarge',
          ],
          [
            'unknown field',
            upload(t, '/api/users/me/media', bob.token, await makePng({ width: 8, height: 8 }), { colour: 'red' }),
            422,
            'validationFailed',
          ],
          [
            'bad boolean',
            upload(t, '/api/users/me/media', bob.token, await makePng({ width: 8, height: 8 }), {
              locationPublic: 'yes',
            }),
            422,
            'validationFailed',
          ],
        ];
      for (const [name, pending, status, code] of cases) {
        const res = await pending;
        assert.equal(res.statusCode, status, `${name}: ${res.body}`);
        assert.equal(res.json.errors[0].code, code, name);
      }
      const json = await t.request({
        method: 'POST',
        url: '/api/users/me/media',
        token: bob.token,
        body: { file: 'x' },
      });
      assert.equal(json.statusCode, 415);
      assert.equal(json.json.errors[0].code, 'unsupportedMediaType');
      assert.deepEqual(await storedKeys(storage), before);
      const listAfter = await t.request({ method: 'GET', url: '/api/users/me/media?limit=100', token: bob.token });
      assert.deepEqual(listAfter.json.data, listBefore.json.data);
    });

    it('refuses every route without a token', async () => {
      for (const [method, url] of [
        ['POST', '/api/users/me/media'],
        ['GET', '/api/users/me/media'],
        ['POST', '/api/users/me/avatar'],
        ['DELETE', '/api/users/me/avatar'],
        ['POST', '/api/users/me/cover'],
        ['DELETE', '/api/users/me/cover'],
        ['DELETE', `/api/users/me/media/${ada.hex}`],
        ['PUT', `/api/users/me/media/${ada.hex}/description`],
        ['DELETE', `/api/users/me/media/${ada.hex}/description`],
      ] as const) {
        const res = await t.request({ method, url });
        assert.equal(res.statusCode, 401, `${method} ${url}`);
      }
    });

    it('replaces the avatar (the previous row and file go) and deletes it', async () => {
      const first = await upload(t, '/api/users/me/avatar', bob.token, await makePng({ width: 50, height: 50 }));
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(first.json.data.attributes.kind, 'avatar');
      assert.equal(first.json.data.attributes.describeStatus, 'skipped');
      const firstHex = first.json.data.attributes.hex;
      const second = await upload(t, '/api/users/me/avatar', bob.token, await makeJpeg({ width: 60, height: 60 }));
      assert.equal(second.statusCode, 201);
      const keys = await storedKeys(storage);
      assert.ok(!keys.some((key) => key.includes(firstHex)), 'the first avatar file is gone');
      assert.ok(keys.some((key) => key.includes(second.json.data.attributes.hex)));
      assert.equal((await t.request({ method: 'GET', url: `/media/${firstHex}.webp` })).statusCode, 404);
      assert.equal(
        (await t.request({ method: 'GET', url: `/media/${second.json.data.attributes.hex}.webp` })).statusCode,
        200,
      );

      const cover = await upload(t, '/api/users/me/cover', bob.token, await makeJpeg({ width: 300, height: 100 }));
      assert.equal(cover.json.data.attributes.kind, 'cover');
      const me = await t.request({ method: 'GET', url: '/api/auth/me', token: bob.token });
      assert.equal(me.json.data.attributes.avatarUrl, `/media/${second.json.data.attributes.hex}.webp?size=thumb`);
      assert.equal(me.json.data.attributes.coverUrl, `/media/${cover.json.data.attributes.hex}.webp?size=large`);
      assert.equal((await t.request({ method: 'GET', url: me.json.data.attributes.avatarUrl })).statusCode, 200);

      assert.equal(
        (await t.request({ method: 'DELETE', url: '/api/users/me/avatar', token: bob.token })).statusCode,
        204,
      );
      assert.equal(
        (await t.request({ method: 'DELETE', url: '/api/users/me/avatar', token: bob.token })).statusCode,
        404,
      );
      assert.ok(!(await storedKeys(storage)).some((key) => key.includes(second.json.data.attributes.hex)));
      assert.equal(
        (await t.request({ method: 'DELETE', url: '/api/users/me/cover', token: bob.token })).statusCode,
        204,
      );
      const cleared = await t.request({ method: 'GET', url: '/api/auth/me', token: bob.token });
      assert.deepEqual([cleared.json.data.attributes.avatarUrl, cleared.json.data.attributes.coverUrl], [null, null]);
      const mine = await t.request({ method: 'GET', url: '/api/users/me/media', token: bob.token });
      assert.ok(mine.json.data.every((item: { attributes: { kind: string } }) => item.attributes.kind === 'post'));
    });

    it('writes and clears a description only on my own media', async () => {
      const created = await upload(t, '/api/users/me/media', ada.token, await makePng({ width: 20, height: 20 }));
      const { id, attributes } = created.json.data;
      assert.equal(attributes.describeStatus, 'pending');
      const url = `/api/users/me/media/${attributes.hex}/description`;
      const other = await t.request({ method: 'PUT', url, token: bob.token, body: { description: 'mine now' } });
      assert.equal(other.statusCode, 404);
      const bad = await t.request({ method: 'PUT', url, token: ada.token, body: { description: '' } });
      assert.equal(bad.statusCode, 422);
      assert.equal(bad.json.errors[0].source.pointer, '/description');
      const put = await t.request({
        method: 'PUT',
        url,
        token: ada.token,
        body: { description: 'Sunset #Beach', hashtags: ['#Sea', 'sand'] },
      });
      assert.equal(put.statusCode, 200);
      assert.equal(put.json.data.attributes.description, 'Sunset #Beach');
      assert.deepEqual(put.json.data.attributes.hashtags, ['sea', 'sand']);
      assert.equal(put.json.data.attributes.describeStatus, 'skipped', "the owner's words take it out of the queue");
      assert.equal((await t.request({ method: 'DELETE', url, token: bob.token })).statusCode, 404);
      assert.equal((await t.request({ method: 'DELETE', url, token: ada.token })).statusCode, 204);
      const list = await t.request({ method: 'GET', url: '/api/users/me/media', token: ada.token });
      const item = list.json.data.find((media: { id: string }) => media.id === id);
      assert.equal(item.attributes.description, null);
      assert.deepEqual(item.attributes.hashtags, []);
      assert.equal(
        (
          await t.request({
            method: 'PUT',
            url: '/api/users/me/media/nope/description',
            token: ada.token,
            body: { description: 'x' },
          })
        ).statusCode,
        422,
      );
    });

    it("deletes my media and its files, never someone else's", async () => {
      const created = await upload(t, '/api/users/me/media', ada.token, await makePng({ width: 20, height: 20 }));
      const hex = created.json.data.attributes.hex;
      assert.equal((await t.request({ method: 'GET', url: `/media/${hex}.webp` })).statusCode, 200);
      assert.equal(
        (await t.request({ method: 'DELETE', url: `/api/users/me/media/${hex}`, token: bob.token })).statusCode,
        404,
      );
      assert.equal((await t.request({ method: 'GET', url: `/media/${hex}.webp` })).statusCode, 200);
      assert.equal(
        (await t.request({ method: 'DELETE', url: `/api/users/me/media/${created.json.data.id}`, token: ada.token }))
          .statusCode,
        204,
      );
      assert.equal((await t.request({ method: 'GET', url: `/media/${hex}.webp` })).statusCode, 404);
      assert.ok(!(await storedKeys(storage)).some((key) => key.includes(hex)));
      assert.equal(
        (await t.request({ method: 'DELETE', url: `/api/users/me/media/${hex}`, token: ada.token })).statusCode,
        404,
      );
    });

    it("pages a user's public media with keyset cursors and 404s an unknown user", async () => {
      const dan = await createUser(t, { username: `dan${backend === 'S3' ? 's3' : 'fs'}` });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1000);
        ids.unshift(
          (await upload(t, '/api/users/me/media', dan.token, await makePng({ width: 10 + i, height: 10 }))).json.data
            .id,
        );
      }
      const first = await t.request({ method: 'GET', url: `/api/users/${dan.hex}/media?limit=2` });
      assert.deepEqual(
        first.json.data.map((item: { id: string }) => item.id),
        ids.slice(0, 2),
      );
      assert.equal(first.json.meta.limit, 2);
      const second = await t.request({ method: 'GET', url: first.json.links.next });
      assert.deepEqual(
        second.json.data.map((item: { id: string }) => item.id),
        ids.slice(2),
      );
      assert.equal(second.json.links.next, null);
      assert.equal(
        (await t.request({ method: 'GET', url: `/api/users/${dan.hex}/media?cursor=bogus` })).statusCode,
        400,
      );
      assert.equal(
        (await t.request({ method: 'GET', url: '/api/users/00000000000040008000000000000000/media' })).statusCode,
        404,
      );
      assert.equal((await t.request({ method: 'GET', url: '/api/users/nope/media' })).statusCode, 422);
    });

    it('awards experience and photographer progress for a published upload', async () => {
      const erin = await createUser(t, { username: `erin${backend === 'S3' ? 's3' : 'fs'}` });
      const before = await t.request({ method: 'GET', url: '/api/auth/me', token: erin.token });
      await upload(t, '/api/users/me/media', erin.token, await makePng({ width: 10, height: 10 }));
      const after = await t.request({ method: 'GET', url: '/api/auth/me', token: erin.token });
      assert.ok(after.json.data.attributes.experience > before.json.data.attributes.experience);
    });

    it('leaves no row and no file when the upload fails after the file was written', async () => {
      const { transactions } = t.services.platform;
      const events = new EventBus(transactions, () => {});
      events.subscribe('media.published', 'inTransaction', 'test.fail', () => {
        throw new Error('simulated failure inside the transaction');
      });
      const repository = new MediaRepository(transactions);
      const users = t.services.areas.accounts.users;
      const failing = new MediaUploadService({
        transactions,
        events,
        repository,
        users,
        storage,
        clock: t.clock,
        geography: t.services.areas.geography.geography,
        quotaBytes: null,
      });
      const before = await storedKeys(storage);
      await assert.rejects(
        failing.upload(ada.id, 'post', { data: await makePng({ width: 12, height: 12 }) }),
        /simulated failure/,
      );
      assert.deepEqual(await storedKeys(storage), before);
      const list = await t.request({ method: 'GET', url: '/api/users/me/media?limit=100', token: ada.token });
      assert.ok(list.json.data.every((item: { attributes: { width: number } }) => item.attributes.width !== 12));
    });
  });
}
