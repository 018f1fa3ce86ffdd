/**
 * GET /api/users/me/export: the archive opened with yauzl and checked file by file (originals byte
 * for byte, manifest counts, sizes and digests, no secret, nothing of another user), one export at a
 * time per user (a lease that also expires), 401 without a token, the rate limit.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { readZip } from '../../../test/helpers/zip.ts';
import { makeJpeg, makePng } from '../../../test/support/test-images.ts';
import { hashToken } from '../../platform/secrets/opaque-tokens.ts';
import { DataExportRepository } from './data-export.repository.ts';
import { exportLease } from './export-leases.ts';

const exportUrl = '/api/users/me/export';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const rowsOf = (entries: Map<string, Buffer>, name: string): Record<string, any>[] => {
  const file = entries.get(`${name}.json`);
  assert.ok(file, `${name}.json is in the archive`);
  return JSON.parse(file.toString('utf8'));
};

/** A section that holds an export of one user open until the test lets it go. */
function gate() {
  let open!: () => void;
  let entered!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const reached = new Promise<void>((resolve) => {
    entered = resolve;
  });
  return { opened, reached, open, entered, userId: '' };
}

describe('data export', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  /** The users Ada blocked and muted (her export holds these, not the block of her by another). */
  let blocksOfAda = { blocked: '', muted: '' };
  const held = gate();
  const failing = { userId: '' };
  const photos: { hex: string; data: Buffer; contentWarning: string | null }[] = [];
  let bobPhoto: { id: string; hex: string; data: Buffer };
  let adaComment = '';
  let bobComment = '';
  let adaClick = '';
  let adaMediaId = '';
  let bobClick = '';

  before(async () => {
    t = await createTestApp();
    // Holds the gated user's export open (one export at a time); yields nothing for anyone else.
    t.services.platform.exports.register({
      name: 'test-gate',
      description: 'A gate the tests hold exports at.',
      async *rows(userId) {
        if (userId === failing.userId) throw new Error('the database went away');
        if (userId !== held.userId) return;
        held.entered();
        await held.opened;
        yield { gated: true };
      },
    });
    ada = await createUser(t);
    bob = await createUser(t);
    const uploads = [
      // Taken in Lyon: with her home in Paris (below), a trip.
      {
        data: await makeJpeg({
          width: 64,
          height: 48,
          gps: { latitude: 45.764, longitude: 4.8357 },
          takenAt: new Date('2026-03-14T10:00:00Z'),
        }),
        contentWarning: null,
      },
      { data: await makePng({ width: 40, height: 30 }), contentWarning: 'Vertigo: a view from the edge' },
    ];
    for (const { data, contentWarning } of uploads) {
      const warning: Record<string, string> = contentWarning === null ? {} : { sensitive: 'true', contentWarning };
      const res = await upload(t, '/api/users/me/media', ada.token, data, {
        description: 'A quiet #harbour',
        ...warning,
      });
      assert.equal(res.statusCode, 201);
      photos.push({ hex: res.json.data.attributes.hex, data, contentWarning });
    }
    const bobData = await makeJpeg({ width: 50, height: 50 });
    const bobUpload = await upload(t, '/api/users/me/media', bob.token, bobData, { description: 'Bob at sea' });
    assert.equal(bobUpload.statusCode, 201);
    bobPhoto = { id: bobUpload.json.data.id, hex: bobUpload.json.data.attributes.hex, data: bobData };
    adaMediaId = (await t.request({ method: 'GET', url: '/api/users/me/media', token: ada.token })).json.data[0].id;

    const ok = async (request: Parameters<TestApp['request']>[0], status = 200) => {
      const res = await t.request(request);
      assert.equal(res.statusCode, status, `${request.method} ${request.url}: ${res.body}`);
      return res;
    };
    await ok({
      method: 'PUT',
      url: `/api/users/me/media/${bobPhoto.id}/reaction`,
      token: ada.token,
      body: { type: 'like' },
    });
    await ok({
      method: 'PUT',
      url: `/api/users/me/media/${adaMediaId}/reaction`,
      token: bob.token,
      body: { type: 'like' },
    });
    await ok({ method: 'POST', url: `/api/users/me/following/${bob.id}`, token: ada.token }, 201);
    await ok({ method: 'POST', url: `/api/users/me/following/${ada.id}`, token: bob.token }, 201);
    // Ada's blocks and mutes are hers; a block of her by someone else is not.
    const [blockedByAda, blockerOfAda, mutedByAda] = [await createUser(t), await createUser(t), await createUser(t)];
    blocksOfAda = { blocked: blockedByAda.id, muted: mutedByAda.id };
    await ok({ method: 'PUT', url: `/api/users/me/blocks/${blockedByAda.id}`, token: ada.token });
    await ok({ method: 'PUT', url: `/api/users/me/blocks/${ada.id}`, token: blockerOfAda.token });
    await ok({
      method: 'PUT',
      url: `/api/users/me/mutes/${mutedByAda.id}`,
      token: ada.token,
      body: { notifications: true },
    });
    await ok({
      method: 'PUT',
      url: '/api/users/me/trip-home',
      token: ada.token,
      body: { latitude: 48.8566, longitude: 2.3522 },
    });
    const collection = await ok(
      { method: 'POST', url: '/api/users/me/bookmarks/collections', token: ada.token, body: { name: 'Ports' } },
      201,
    );
    await ok({
      method: 'PUT',
      url: `/api/users/me/media/${bobPhoto.id}/bookmark`,
      token: ada.token,
      body: { collectionId: collection.json.data.id },
    });
    await ok(
      {
        method: 'POST',
        url: '/api/users/me/filters',
        token: ada.token,
        body: { title: 'Spoilers', context: ['feeds', 'comments'], action: 'warn', keywords: [{ keyword: 'Finale' }] },
      },
      201,
    );
    adaComment = `What a view ${randomUUID()}`;
    bobComment = `Thanks ${randomUUID()}`;
    await ok(
      { method: 'POST', url: `/api/media/${bobPhoto.id}/comments`, token: ada.token, body: { body: adaComment } },
      201,
    );
    await ok(
      { method: 'POST', url: `/api/media/${adaMediaId}/comments`, token: bob.token, body: { body: bobComment } },
      201,
    );
    await ok(
      { method: 'POST', url: `/api/media/${bobPhoto.id}/reports`, token: ada.token, body: { reason: 'spam' } },
      201,
    );
    // An operator hid her photo; she appealed and the decision was reversed (the photo is back).
    await ok({ method: 'PUT', url: `/admin/media/${adaMediaId}/flag`, token: adminToken, body: { flag: 2 } });
    const decisions = await ok({ method: 'GET', url: '/api/users/me/moderation-decisions', token: ada.token });
    const appealed = await ok(
      {
        method: 'POST',
        url: '/api/users/me/appeals',
        token: ada.token,
        body: { decisionId: decisions.json.data[0].id, text: 'My own photo' },
      },
      201,
    );
    await ok({
      method: 'PATCH',
      url: `/admin/appeals/${appealed.json.data.id}`,
      token: adminToken,
      body: { outcome: 'reversed' },
    });
    await ok({ method: 'PUT', url: '/api/users/me/topics', token: ada.token, body: { topics: ['beaches'] } });
    await ok({ method: 'POST', url: '/api/newsletter/subscribe', body: { email: ada.email.toUpperCase() } }, 202);
    await ok(
      {
        method: 'POST',
        url: '/api/users/me/social-feeds',
        token: ada.token,
        body: { name: 'Harbours', mediaIds: [adaMediaId] },
      },
      201,
    );
    await ok(
      {
        method: 'POST',
        url: '/api/users/me/share-links',
        token: ada.token,
        body: { targetKind: 'post', targetId: adaMediaId, password: 'for my aunt' },
      },
      201,
    );
    await ok(
      {
        method: 'POST',
        url: '/admin/coupons',
        token: adminToken,
        body: { id: 'HARBOUR-2026', userLimit: 3, rewards: [{ rewardId: 1, value: 10 }] },
      },
      201,
    );
    await ok({ method: 'POST', url: '/api/users/me/coupons', token: ada.token, body: { code: 'harbour-2026' } }, 201);
    // Clicks on offers: Ada's from Bob's photo (her purchase), Bob's from Ada's photo (her earning).
    const { row: inn } = await t.services.areas.catalogue.establishments.save({
      externalId: 'export-inn',
      name: 'Harbour Inn',
      kind: 'hotel',
      countryCode: 'FR',
    });
    const { row: offer } = await t.services.areas.catalogue.offers.save({
      externalId: 'export-offer',
      title: { 'en-US': 'A night at the harbour' },
      establishmentId: inn.id,
      currency: 'EUR',
      commissionRateBps: 750,
      partnerUrl: 'https://partner.example/book',
    });
    const clickFrom = (token: string, mediaId: string) =>
      ok({ method: 'POST', url: `/api/offers/${offer.id}/clicks`, token, body: { mediaId } }, 201);
    adaClick = (await clickFrom(ada.token, bobPhoto.id)).json.data.id;
    bobClick = (await clickFrom(bob.token, adaMediaId)).json.data.id;
    for (const [ref, amount] of [
      [adaClick, 20_000],
      [bobClick, 10_000],
    ] as const) {
      await ok(
        {
          method: 'POST',
          url: '/admin/tracking/conversions',
          token: adminToken,
          body: { ref, amount, currency: 'EUR', partnerTransactionId: `export-${ref}` },
        },
        201,
      );
    }
  });
  after(() => t.close());

  it('answers 401 without a token', async () => {
    const res = await t.request({ method: 'GET', url: exportUrl });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json.errors[0].code, 'unauthenticated');
  });

  it('streams a ZIP of everything of mine, checked file by file', async () => {
    const res = await t.request({ method: 'GET', url: exportUrl, token: ada.token });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/zip');
    assert.match(
      String(res.headers['content-disposition']),
      /^attachment; filename="travel-media-export-2026-11-21\.zip"$/,
    );
    const entries = await readZip(res.rawPayload);

    // The manifest: every section with its row count, every other file with its size and SHA-256.
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    assert.equal(manifest.formatVersion, 1);
    assert.equal(manifest.userId, ada.id);
    assert.equal(manifest.generatedAt, '2026-11-21T12:00:00.000+00:00');
    const names = t.services.platform.exports.sections().map((section) => section.name);
    assert.deepEqual(
      manifest.sections.map((section: { name: string }) => section.name),
      names,
    );
    for (const section of manifest.sections) {
      assert.equal(section.file, `${section.name}.json`);
      assert.equal(section.rows, rowsOf(entries, section.name).length, `${section.name} row count`);
      assert.ok(section.description.length > 10);
    }
    const listed = new Map<string, { size: number; sha256: string }>(
      manifest.files.map((file: { path: string; size: number; sha256: string }) => [file.path, file]),
    );
    assert.deepEqual([...listed.keys()].sort(), [...entries.keys()].filter((path) => path !== 'manifest.json').sort());
    for (const [path, data] of entries) {
      if (path === 'manifest.json') continue;
      assert.equal(listed.get(path)!.size, data.length, `${path} size`);
      assert.equal(listed.get(path)!.sha256, sha256(data), `${path} digest`);
    }
    const readme = entries.get('README.txt')!.toString('utf8');
    for (const name of names) assert.ok(readme.includes(`${name}.json`), `README names ${name}.json`);

    // My photos: their rows, and their originals byte for byte.
    const media = rowsOf(entries, 'media');
    assert.equal(media.length, 2);
    assert.equal(manifest.sections.find((section: { name: string }) => section.name === 'media').files, 2);
    for (const photo of photos) {
      const row = media.find((candidate) => candidate.id.replaceAll('-', '') === photo.hex);
      assert.ok(row, `media row of ${photo.hex}`);
      assert.equal(row.ownerId, ada.id);
      assert.equal(row.description, 'A quiet #harbour');
      assert.equal(row.authorSensitive, photo.contentWarning !== null, 'the content warning is exported');
      assert.equal(row.contentWarning, photo.contentWarning);
      assert.equal(row.createdAt, '2026-11-21T12:00:00.000+00:00');
      assert.ok(!('originalKey' in row));
      assert.ok(entries.get(row.file)?.equals(photo.data), `${row.file} is the upload, byte for byte`);
    }

    const [profile, ...moreProfiles] = rowsOf(entries, 'profile');
    assert.equal(moreProfiles.length, 0);
    assert.equal(profile!.id, ada.id);
    assert.equal(profile!.email, ada.email);
    assert.equal(profile!.username, ada.username);
    assert.ok(!('passwordHash' in profile!));
    const sessions = rowsOf(entries, 'sessions');
    assert.deepEqual(
      sessions.map((session) => session.id),
      [ada.sessionId],
    );
    assert.ok(!('tokenHash' in sessions[0]!));

    assert.deepEqual(
      rowsOf(entries, 'reactions').map((row) => [row.mediaId, row.type]),
      [[bobPhoto.id, 'like']],
    );
    assert.deepEqual(
      rowsOf(entries, 'blocks').map((row) => [row.blockerId, row.blockedId]),
      [[ada.id, blocksOfAda.blocked]],
    );
    assert.deepEqual(
      rowsOf(entries, 'mutes').map((row) => [row.muterId, row.mutedId, row.notifications, row.expiresAt]),
      [[ada.id, blocksOfAda.muted, true, null]],
    );
    assert.deepEqual(
      rowsOf(entries, 'following').map((row) => [row.followerId, row.followeeId]),
      [[ada.id, bob.id]],
    );
    assert.deepEqual(
      rowsOf(entries, 'followers').map((row) => [row.followerId, row.followeeId]),
      [[bob.id, ada.id]],
    );
    assert.deepEqual(
      rowsOf(entries, 'filters').map((row) => [row.userId, row.title, row.contexts, row.action, row.keywords]),
      [[ada.id, 'Spoilers', ['feeds', 'comments'], 'warn', [{ keyword: 'Finale', wholeWord: true }]]],
    );
    const lyon = media.find((row) => row.latitude !== null)!;
    assert.deepEqual(
      rowsOf(entries, 'trips').map((row) => [row.ownerId, row.photoIds, row.hidden]),
      [[ada.id, [lyon.id], false]],
    );
    assert.deepEqual(
      rowsOf(entries, 'trip-home').map((row) => [row.latitude, row.longitude]),
      [[48.8566, 2.3522]],
    );
    const [collection] = rowsOf(entries, 'bookmark-collections');
    assert.equal(collection!.name, 'Ports');
    assert.deepEqual(
      rowsOf(entries, 'bookmarks').map((row) => [row.mediaId, row.collectionId]),
      [[bobPhoto.id, collection!.id]],
    );
    assert.deepEqual(
      rowsOf(entries, 'comments').map((row) => [row.mediaId, row.body]),
      [[bobPhoto.id, adaComment]],
    );
    assert.deepEqual(
      rowsOf(entries, 'reports').map((row) => [row.targetId, row.reason, row.status]),
      [[bobPhoto.id, 'spam', 'open']],
    );
    assert.ok(!('note' in rowsOf(entries, 'reports')[0]!));
    assert.deepEqual(
      rowsOf(entries, 'moderation-decisions').map((row) => [row.kind, row.targetId, row.reversedAt !== null]),
      [['mediaHidden', adaMediaId, true]],
    );
    assert.deepEqual(
      rowsOf(entries, 'appeals').map((row) => [row.text, row.status]),
      [['My own photo', 'reversed']],
    );
    assert.deepEqual(
      rowsOf(entries, 'topics').map((row) => row.slug),
      ['beaches'],
    );
    const notifications = rowsOf(entries, 'notifications');
    assert.ok(
      notifications.some((row) => row.type === 'follow.received'),
      JSON.stringify(notifications),
    );
    const experience = rowsOf(entries, 'experience');
    assert.ok(experience.length > 0, 'publishing and being followed earned experience');
    assert.ok(experience.every((row) => row.userId === ada.id));
    assert.deepEqual(
      rowsOf(entries, 'social-feeds').map((row) => [row.name, row.handPickedMediaIds]),
      [['Harbours', [adaMediaId]]],
    );
    assert.deepEqual(
      rowsOf(entries, 'share-links').map((row) => [row.targetKind, row.targetId, row.hasPassword, row.views]),
      [['post', adaMediaId, true, 0]],
    );
    assert.ok(
      !('tokenHash' in rowsOf(entries, 'share-links')[0]!) && !('passwordHash' in rowsOf(entries, 'share-links')[0]!),
    );
    assert.deepEqual(
      rowsOf(entries, 'coupon-redemptions').map((row) => [row.code, row.rewards]),
      [['HARBOUR-2026', [{ rewardId: 1, value: 10 }]]],
    );
    assert.deepEqual(
      rowsOf(entries, 'clicks').map((row) => [row.ref, row.viewerId, row.mediaId]),
      [[adaClick, ada.id, bobPhoto.id]],
    );
    assert.ok(!('visitorKey' in rowsOf(entries, 'clicks')[0]!));
    // 64-bit amounts as strings, in minor units: 20,000 × 7.5 % = 1,500; 10,000 × 7.5 % = 750.
    assert.deepEqual(
      rowsOf(entries, 'conversions').map((row) => [row.clickRef, row.amount, row.commission, row.currency]),
      [[adaClick, '20000', '1500', 'EUR']],
    );
    assert.deepEqual(
      rowsOf(entries, 'earnings').map((row) => [row.clickRef, row.commission, 'amount' in row]),
      [[bobClick, '750', false]],
    );
    assert.deepEqual(
      rowsOf(entries, 'newsletter').map((row) => [row.email, row.status]),
      [[ada.email.toLowerCase(), 'pending']],
    );

    // No secret anywhere, and nothing that is only Bob's.
    const everything = Buffer.concat([...entries.values()]);
    const text = everything.toString('latin1');
    for (const secret of [ada.user.passwordHash!, ada.token, hashToken(ada.token), 'passwordHash', 'tokenHash']) {
      assert.ok(!text.includes(secret), `the archive holds no ${secret.slice(0, 12)}…`);
    }
    for (const bobs of [bob.email, bobComment, bob.token, bob.sessionId]) {
      assert.ok(!text.includes(bobs), `the archive holds nothing of Bob's (${bobs.slice(0, 12)}…)`);
    }
    assert.ok(!everything.includes(bobPhoto.data), "Bob's original is not in it");
    assert.ok(![...entries.keys()].some((path) => path.includes(bobPhoto.hex)));
  });

  it('runs one export of a user at a time (409 exportInProgress), on any instance', async () => {
    const carol = await createUser(t);
    held.userId = carol.id;
    const first = t.request({ method: 'GET', url: exportUrl, token: carol.token });
    await held.reached;
    const second = await t.request({ method: 'GET', url: exportUrl, token: carol.token });
    assert.equal(second.statusCode, 409);
    assert.equal(second.json.errors[0].code, 'exportInProgress');
    // Another user exports meanwhile.
    assert.equal((await t.request({ method: 'GET', url: exportUrl, token: bob.token })).statusCode, 200);
    held.open();
    const done = await first;
    assert.equal(done.statusCode, 200);
    assert.ok((await readZip(done.rawPayload)).has('manifest.json'));
    // Released when the stream ended: the next export runs.
    const third = await t.request({ method: 'GET', url: exportUrl, token: carol.token });
    assert.equal(third.statusCode, 200);
  });

  it('answers HEAD without making an archive or holding the lease', async () => {
    const dora = await createUser(t);
    const head = await t.request({ method: 'HEAD', url: exportUrl, token: dora.token });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-type'], 'application/zip');
    assert.equal(head.rawPayload.length, 0);
    const download = await t.request({ method: 'GET', url: exportUrl, token: dora.token });
    assert.equal(download.statusCode, 200);
    assert.ok((await readZip(download.rawPayload)).has('manifest.json'));
  });

  it('takes over a lease its instance stopped renewing once it expired', async () => {
    const dave = await createUser(t);
    const now = t.clock.now();
    const leases = new DataExportRepository(t.services.platform.transactions);
    const expiresAt = new Date(now.getTime() + exportLease.leaseSeconds * 1000);
    assert.ok(await leases.acquire(dave.id, randomUUID(), now, expiresAt));
    const refused = await t.request({ method: 'GET', url: exportUrl, token: dave.token });
    assert.equal(refused.statusCode, 409);
    t.clock.advance(exportLease.leaseSeconds * 1000);
    const taken = await t.request({ method: 'GET', url: exportUrl, token: dave.token });
    assert.equal(taken.statusCode, 200);
    assert.equal(await leases.find(dave.id), null, 'released at the end of the stream');
  });

  it('stops the export and releases the lease when the client goes away', async () => {
    const hank = await createUser(t);
    const gated = gate();
    Object.assign(held, { ...gated, userId: hank.id });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const leases = new DataExportRepository(t.services.platform.transactions);
    try {
      const leaving = new AbortController();
      const response = await fetch(`${address}${exportUrl}`, {
        headers: { authorization: `Bearer ${hank.token}` },
        signal: leaving.signal,
      });
      assert.equal(response.status, 200);
      await held.reached;
      assert.notEqual(await leases.find(hank.id), null, 'held while the archive streams');
      leaving.abort();
      await waitFor('the lease released', async () => (await leases.find(hank.id)) === null, 30_000);
    } finally {
      held.open();
      held.userId = '';
    }
    assert.equal((await t.request({ method: 'GET', url: exportUrl, token: hank.token })).statusCode, 200);
  });

  it("drops an erased account's lease (user.erasing)", async () => {
    const ida = await createUser(t);
    const leases = new DataExportRepository(t.services.platform.transactions);
    const now = t.clock.now();
    assert.ok(await leases.acquire(ida.id, randomUUID(), now, new Date(now.getTime() + 60_000)));
    const { transactions, events } = t.services.platform;
    await transactions.run(() => events.publish('user.erasing', { userId: ida.id }));
    assert.equal(await leases.find(ida.id), null);
  });

  it('breaks the transfer when a section fails midway, and releases the lease', async () => {
    const gus = await createUser(t);
    failing.userId = gus.id;
    const broken = await t.request({ method: 'GET', url: exportUrl, token: gus.token }).then(
      (res) => res,
      () => null,
    );
    // Headers went out with 200 before the failure: the client sees a truncated transfer, never a whole archive.
    if (broken !== null) await assert.rejects(readZip(broken.rawPayload));
    failing.userId = '';
    const leases = new DataExportRepository(t.services.platform.transactions);
    await waitFor('the lease released', async () => (await leases.find(gus.id)) === null, 30_000);
    assert.equal((await t.request({ method: 'GET', url: exportUrl, token: gus.token })).statusCode, 200);
  });
});

describe('data export rate limit (RATE_LIMITS=on)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('allows 5 exports an hour per user', async () => {
    const erin = await createUser(t);
    for (let i = 0; i < 5; i++) {
      assert.equal((await t.request({ method: 'GET', url: exportUrl, token: erin.token })).statusCode, 200);
    }
    const refused = await t.request({ method: 'GET', url: exportUrl, token: erin.token });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json.errors[0].code, 'rateLimited');
    const frank = await createUser(t);
    assert.equal((await t.request({ method: 'GET', url: exportUrl, token: frank.token })).statusCode, 200);
    t.clock.advance(3_600_000);
    assert.equal((await t.request({ method: 'GET', url: exportUrl, token: erin.token })).statusCode, 200);
  });
});
