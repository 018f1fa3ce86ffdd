import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { adminToken, createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../../test/helpers/factories.ts';
import { upload } from '../../../../test/helpers/media-uploads.ts';
import { makeJpeg, makePng } from '../../../../test/support/test-images.ts';

describe('the description queue', () => {
  let t: TestApp;
  let ada: TestUser;
  const admin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, ...(body !== undefined ? { body } : {}) });
  const newPost = async () =>
    (
      await upload(
        t,
        '/api/users/me/media',
        ada.token,
        await makeJpeg({ width: 300, height: 200, gps: { latitude: 1, longitude: 2 } }),
      )
    ).json.data;

  before(async () => {
    t = await createTestApp();
    ada = await createUser(t);
  });
  after(() => t.close());

  it('refuses user tokens and no token on every queue route', async () => {
    for (const [method, url] of [
      ['GET', '/admin/jobs/describe-queue'],
      ['POST', '/admin/media/0123456789abcdef0123456789abcdef/claim'],
      ['GET', '/admin/media/0123456789abcdef0123456789abcdef/base64'],
      ['POST', '/admin/media/describe'],
      ['POST', '/admin/media/0123456789abcdef0123456789abcdef/fail'],
      ['POST', '/admin/jobs/describe-queue/requeue'],
    ] as const) {
      assert.equal((await t.request({ method, url })).statusCode, 401);
      assert.equal((await t.request({ method, url, token: ada.token })).statusCode, 401, `${method} ${url}`);
    }
  });

  it('lists new posts, claims with a lease, refuses a second claim until the lease ends', async () => {
    const post = await newPost();
    const queue = await admin('GET', '/admin/jobs/describe-queue');
    assert.equal(queue.statusCode, 200);
    assert.ok(queue.json.data.some((item: { id: string }) => item.id === post.id));
    assert.ok(queue.json.meta.total >= 1);

    const claim = await admin('POST', `/admin/media/${post.attributes.hex}/claim`);
    assert.equal(claim.statusCode, 200, claim.body);
    assert.equal(claim.json.data.attributes.describeStatus, 'claimed');
    assert.equal(
      claim.json.data.attributes.claimedUntil,
      new Date(t.clock.now().getTime() + 300_000).toISOString().replace('Z', '+00:00'),
    );
    const second = await admin('POST', `/admin/media/${post.id}/claim`);
    assert.equal(second.statusCode, 409);
    assert.equal(second.json.errors[0].code, 'mediaAlreadyClaimed');

    t.clock.advance(299_000);
    assert.equal((await admin('POST', `/admin/media/${post.id}/claim`)).statusCode, 409);
    t.clock.advance(1_000);
    const reclaimed = await admin('POST', `/admin/media/${post.id}/claim`, { leaseSeconds: 60 });
    assert.equal(reclaimed.statusCode, 200, 'an expired lease can be claimed again');
    assert.equal(reclaimed.json.data.attributes.describeAttempts, 2);
  });

  it('takes a description only under a live claim, then shows it publicly', async () => {
    const post = await newPost();
    const early = await admin('POST', '/admin/media/describe', {
      mediaId: post.attributes.hex,
      description: 'A beach',
    });
    assert.equal(early.statusCode, 409);
    assert.equal(early.json.errors[0].code, 'mediaNotClaimed');
    await admin('POST', `/admin/media/${post.id}/claim`);
    const image = await admin('GET', `/admin/media/${post.attributes.hex}/base64`);
    assert.equal(image.statusCode, 200);
    assert.equal(image.json.data.attributes.contentType, 'image/jpeg');
    const bytes = Buffer.from(image.json.data.attributes.base64, 'base64');
    const metadata = await sharp(bytes).metadata();
    assert.equal(metadata.format, 'jpeg');
    assert.equal(metadata.exif, undefined);

    const described = await admin('POST', '/admin/media/describe', {
      mediaId: post.id,
      description: 'A quiet beach at dawn',
      hashtags: ['Beach', '#dawn'],
      locale: 'en-US',
    });
    assert.equal(described.statusCode, 200, described.body);
    assert.equal(described.json.data.attributes.describeStatus, 'described');
    assert.equal(described.json.data.attributes.claimedUntil, null);
    const again = await admin('POST', '/admin/media/describe', { mediaId: post.id, description: 'twice' });
    assert.equal(again.statusCode, 409);
    const list = await t.request({ method: 'GET', url: `/api/users/${ada.hex}/media?limit=100` });
    const seen = list.json.data.find((item: { id: string }) => item.id === post.id);
    assert.equal(seen.attributes.description, 'A quiet beach at dawn');
    assert.deepEqual(seen.attributes.hashtags, ['beach', 'dawn']);

    const bad = await admin('POST', '/admin/media/describe', { mediaId: 'nope', description: 'x' });
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json.errors[0].source.pointer, '/mediaId');
    const unknown = await admin('POST', '/admin/media/describe', {
      mediaId: '0123456789abcdef0123456789abcdef',
      description: 'x',
    });
    assert.equal(unknown.statusCode, 404);
    const missing = await admin('POST', '/admin/media/describe', { mediaId: post.id });
    assert.equal(missing.statusCode, 422);
  });

  it('records failures, requeues, and refuses to claim what is not queued', async () => {
    const post = await newPost();
    assert.equal((await admin('POST', `/admin/media/${post.id}/fail`, { reason: 'blurry' })).statusCode, 409);
    await admin('POST', `/admin/media/${post.id}/claim`);
    const failed = await admin('POST', `/admin/media/${post.id}/fail`, { reason: 'model timeout' });
    assert.equal(failed.statusCode, 200);
    assert.equal(failed.json.data.attributes.describeStatus, 'failed');
    assert.equal(failed.json.data.attributes.failReason, 'model timeout');
    const claimFailed = await admin('POST', `/admin/media/${post.id}/claim`);
    assert.equal(claimFailed.statusCode, 409);
    assert.equal(claimFailed.json.errors[0].code, 'mediaNotInQueue');
    const failedList = await admin('GET', '/admin/jobs/describe-queue?status=failed');
    assert.ok(failedList.json.data.some((item: { id: string }) => item.id === post.id));

    const requeued = await admin('POST', '/admin/jobs/describe-queue/requeue', { mediaId: post.attributes.hex });
    assert.equal(requeued.statusCode, 200);
    assert.equal(requeued.json.data.attributes.describeStatus, 'pending');
    assert.equal(requeued.json.data.attributes.failReason, null);
    assert.equal((await admin('POST', `/admin/media/${post.id}/claim`)).statusCode, 200);
    assert.equal(
      (await admin('POST', '/admin/jobs/describe-queue/requeue', { mediaId: '0123456789abcdef0123456789abcdef' }))
        .statusCode,
      404,
    );
    assert.equal((await admin('POST', '/admin/jobs/describe-queue/requeue', { mediaId: 42 })).statusCode, 422);
    assert.equal((await admin('POST', '/admin/media/zz/claim')).statusCode, 422);
    assert.equal((await admin('GET', '/admin/media/0123456789abcdef0123456789abcdef/base64')).statusCode, 404);
  });

  it('flushing describe-queue returns expired leases to pending', async () => {
    const post = await newPost();
    await admin('POST', `/admin/media/${post.id}/claim`, { leaseSeconds: 60 });
    const early = await admin('POST', '/admin/jobs/flush/describe-queue');
    assert.equal(early.statusCode, 200);
    t.clock.advance(61_000);
    const flush = await admin('POST', '/admin/jobs/flush/describe-queue');
    assert.equal(flush.statusCode, 200);
    assert.ok(flush.json.data.attributes.report.released >= 1);
    const pending = await admin('GET', '/admin/jobs/describe-queue?status=pending&limit=200');
    assert.ok(pending.json.data.some((item: { id: string }) => item.id === post.id));
    const late = await admin('POST', '/admin/media/describe', { mediaId: post.id, description: 'too late' });
    assert.equal(late.statusCode, 409);
  });

  it('keeps avatars out of the queue and audits every call', async () => {
    const avatar = await upload(t, '/api/users/me/avatar', ada.token, await makePng({ width: 32, height: 32 }));
    const claim = await admin('POST', `/admin/media/${avatar.json.data.id}/claim`);
    assert.equal(claim.statusCode, 404);
    const audit = await t.services.platform.audit.recent(200);
    const actions = new Set(audit.map((entry) => entry.action));
    for (const action of [
      'media.claim',
      'media.describe',
      'media.fail',
      'media.requeue',
      'media.base64',
      'media.describeQueue.list',
    ]) {
      assert.ok(actions.has(action), `audited ${action}`);
    }
    assert.ok(audit.every((entry) => entry.actor === 'admin' || entry.actor !== undefined));
  });
});
