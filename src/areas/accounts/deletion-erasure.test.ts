import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp, type TestResponse } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import { readMediaRow } from '../../../test/helpers/media-factory.ts';
import { storedKeys, upload } from '../../../test/helpers/media-uploads.ts';
import { enableTwoFactor } from '../../../test/helpers/two-factor.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { makeJpeg, makePng } from '../../../test/support/test-images.ts';
import { queryRows } from '../../platform/db/rows.ts';

const graceDays = 3;
const dayMs = 86_400_000;

describe('account erasure after the grace period', () => {
  let t: TestApp;
  const admin = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, ...(body !== undefined ? { body } : {}) });
  const as = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.request({ method, url, token: user.token, ...(body !== undefined ? { body } : {}) });
  const ok = async (response: Promise<TestResponse>, status: number) => {
    const res = await response;
    assert.equal(res.statusCode, status, res.body);
    return res;
  };
  const newPost = async (user: TestUser, url = '/api/users/me/media') => {
    const res = await upload(t, url, user.token, await makePng({ width: 24, height: 24 }));
    assert.ok(res.statusCode === 201 || res.statusCode === 200, res.body);
    return res.json.data as { id: string };
  };
  const flushErasure = async () =>
    (await ok(admin('POST', '/admin/jobs/flush/account-erasure'), 200)).json.data.attributes.report as {
      erased: number;
      failed: number;
    };
  const counters = async (mediaId: string) => {
    const row = await readMediaRow(t, mediaId);
    return { likes: row.likesCount, bookmarks: row.bookmarksCount, comments: row.commentsCount };
  };
  const visibleComments = async (mediaId: string) =>
    (await t.request({ method: 'GET', url: `/api/media/${mediaId}/comments?limit=100` })).json.data as {
      id: string;
      attributes: { body: string | null };
    }[];

  before(async () => {
    // Federation on: Ada's actor is fetched once, which makes her key pairs (federation_actor_keys).
    t = await createTestApp({ env: { ACCOUNT_DELETION_GRACE_DAYS: String(graceDays), FEDERATION: 'on' } });
  });
  after(() => t.close());

  it('erases rows, files and personal data everywhere, repairs counters on others, and is idempotent', async () => {
    const marker = randomBytes(4).toString('hex');
    const ada = await createUser(t, { username: `zephyrine${marker}`, nickname: `Zephyrine Q${marker}` });
    const bob = await createUser(t);
    const cyd = await createUser(t);
    // An account Ada sponsored.
    const dan = await t.services.areas.accounts.accounts.register(
      { email: `dan${marker}@example.test`, password: strongPassword, sponsorCode: ada.user.sponsorCode },
      { ip: '127.0.0.1', userAgent: 'test' },
    );

    // Ada's content: two posts and an avatar (files in storage).
    const adaPost = await newPost(ada);
    const adaSecond = await newPost(ada);
    const avatar = await newPost(ada, '/api/users/me/avatar');
    const bobsPost = await newPost(bob);
    // A post of several photos (media's posts): her first post leads it, a third photo with its own text.
    const adaThird = await newPost(ada);
    await ok(
      as(ada, 'POST', '/api/users/me/posts', {
        photos: [{ mediaId: adaPost.id }, { mediaId: adaThird.id, description: `Taken by ${ada.user.nickname}` }],
        caption: 'Two views',
      }),
      201,
    );
    const adaMediaHex = [adaPost.id, adaSecond.id, avatar.id, adaThird.id].map((id) => id.replaceAll('-', ''));
    const keysBefore = await storedKeys(t.deps.storage);
    for (const hex of adaMediaHex)
      assert.ok(
        keysBefore.some((key) => key.includes(hex)),
        'her files are stored',
      );

    // What Ada did on others' content, and what others did on hers.
    await ok(as(ada, 'PUT', `/api/users/me/media/${bobsPost.id}/reaction`, { type: 'like' }), 200);
    await ok(as(cyd, 'PUT', `/api/users/me/media/${bobsPost.id}/reaction`, { type: 'like' }), 200);
    await ok(as(cyd, 'PUT', `/api/users/me/media/${adaPost.id}/reaction`, { type: 'like' }), 200);
    const collection = await ok(
      as(ada, 'POST', '/api/users/me/bookmarks/collections', { name: `Trips ${marker}` }),
      201,
    );
    await ok(
      as(ada, 'PUT', `/api/users/me/media/${bobsPost.id}/bookmark`, { collectionId: collection.json.data.id }),
      200,
    );
    await ok(
      as(ada, 'POST', '/api/users/me/filters', {
        title: `Spoilers ${marker}`,
        context: ['feeds'],
        action: 'hide',
        keywords: [{ keyword: `spoiler ${marker}` }],
      }),
      201,
    );
    const adaComment = await ok(
      as(ada, 'POST', `/api/media/${bobsPost.id}/comments`, { body: `Lovely, says ${ada.user.nickname}` }),
      201,
    );
    await ok(
      as(bob, 'POST', `/api/media/${bobsPost.id}/comments`, { body: 'Thank you!', parentId: adaComment.json.data.id }),
      201,
    );
    await ok(as(cyd, 'POST', `/api/media/${bobsPost.id}/comments`, { body: 'Where is this?' }), 201);
    const mention = await ok(
      as(bob, 'POST', `/api/media/${bobsPost.id}/comments`, { body: `Ask @${ada.username} about it` }),
      201,
    );
    await ok(as(cyd, 'POST', `/api/media/${adaPost.id}/comments`, { body: 'Great shot' }), 201);
    await ok(as(ada, 'POST', `/api/users/me/following/${bob.id}`), 201);
    await ok(as(bob, 'POST', `/api/users/me/following/${ada.id}`), 201);
    await ok(as(cyd, 'POST', `/api/users/me/following/${ada.id}`), 201);
    // Blocks and mutes both ways: Ada's, and others' of her (a fourth person, so the follows above stay).
    const dot = await createUser(t);
    await ok(as(ada, 'PUT', `/api/users/me/blocks/${dot.id}`), 200);
    await ok(as(dot, 'PUT', `/api/users/me/mutes/${ada.id}`, { notifications: true }), 200);
    await ok(as(ada, 'PUT', `/api/users/me/mutes/${cyd.id}`, {}), 200);
    await ok(
      as(cyd, 'POST', `/api/users/${ada.hex}/reports`, { reason: 'spam', details: `${ada.username} spams` }),
      201,
    );
    await ok(as(ada, 'POST', `/api/media/${bobsPost.id}/reports`, { reason: 'copyright' }), 201);
    await ok(as(ada, 'PUT', '/api/users/me/topics', { topics: ['beaches', 'hiking'] }), 200);
    // A trip: two photos taken in Lyon, her home position in Paris, the trip renamed (frozen).
    await ok(as(ada, 'PUT', '/api/users/me/trip-home', { latitude: 48.8566, longitude: 2.3522 }), 200);
    for (const day of ['2026-03-14T10:00:00Z', '2026-03-15T10:00:00Z']) {
      const photo = await makeJpeg({
        width: 24,
        height: 24,
        gps: { latitude: 45.764, longitude: 4.8357 },
        takenAt: new Date(day),
      });
      await ok(upload(t, '/api/users/me/media', ada.token, photo), 201);
    }
    const [adaTrip] = (await ok(t.request({ method: 'GET', url: `/api/users/${ada.id}/trips` }), 200)).json.data;
    await ok(as(ada, 'PATCH', `/api/users/me/trips/${adaTrip.id}`, { title: `Lyon ${marker}` }), 200);
    await ok(as(ada, 'POST', '/api/users/me/social-feeds', { name: 'My trips', mediaIds: [adaPost.id] }), 201);
    await ok(
      as(ada, 'POST', '/api/users/me/share-links', {
        targetKind: 'post',
        targetId: adaPost.id,
        password: 'for my aunt',
      }),
      201,
    );
    await ok(t.request({ method: 'POST', url: '/api/newsletter/subscribe', body: { email: ada.email } }), 202);
    await ok(
      admin('POST', '/admin/coupons', {
        id: `ERASE-${marker}`.toUpperCase(),
        userLimit: 5,
        rewards: [{ rewardId: 1, value: 10 }],
      }),
      201,
    );
    await ok(as(ada, 'POST', '/api/users/me/coupons', { code: `ERASE-${marker}`.toUpperCase() }), 201);
    // Clicks: Ada clicking an offer on Bob's post, Cyd clicking one on Ada's post (with a sale).
    const { row: lodge } = await t.services.areas.catalogue.establishments.save({
      externalId: `erasure-lodge-${marker}`,
      name: 'Lakeside Ecolodge',
      kind: 'ecolodge',
      countryCode: 'FR',
    });
    const { row: offer } = await t.services.areas.catalogue.offers.save({
      externalId: `erasure-offer-${marker}`,
      title: { 'en-US': 'A night by the lake' },
      establishmentId: lodge.id,
      currency: 'EUR',
      commissionRateBps: 750,
      partnerUrl: 'https://partner.example/book',
    });
    await ok(as(ada, 'POST', `/api/offers/${offer.id}/clicks`, { mediaId: bobsPost.id }), 201);
    const cydClick = await ok(as(cyd, 'POST', `/api/offers/${offer.id}/clicks`, { mediaId: adaPost.id }), 201);
    await ok(
      admin('POST', '/admin/tracking/conversions', {
        ref: cydClick.json.data.id,
        amount: 10_000,
        currency: 'EUR',
        partnerTransactionId: `txn-${marker}`,
      }),
      201,
    );
    // An operator hid her second post and she appealed: a decision, an appeal, her mail locale.
    await ok(admin('PUT', `/admin/media/${adaSecond.id}/flag`, { flag: 2 }), 200);
    const decisions = await ok(as(ada, 'GET', '/api/users/me/moderation-decisions'), 200);
    await ok(
      as(ada, 'POST', '/api/users/me/appeals', {
        decisionId: decisions.json.data[0].id,
        text: `My own photo, says ${ada.user.nickname}`,
      }),
      201,
    );
    // Operators acted on her (audited with her id as the target).
    await ok(admin('PUT', `/admin/users/${ada.hex}/verified`, { verified: true }), 200);
    const db = t.deps.database.db;
    // A linked identity (written as the identities area would after a provider sign-in).
    await queryRows(
      db,
      sql`INSERT INTO user_identities (id, user_id, provider, subject, email, linked_at)
          VALUES (${randomUUID()}, ${ada.id}, 'google', ${`subject-${marker}`}, ${ada.email}, ${t.clock.now().toISOString()})`,
    );
    // A passkey, and a registration challenge she did not answer (as the passkeys area writes them).
    await queryRows(
      db,
      sql`INSERT INTO passkeys (id, user_id, credential_id, public_key, name, device_type, backed_up, created_at)
          VALUES (${randomUUID()}, ${ada.id}, ${`credential-${marker}`}, 'cHVibGlj', 'Her phone', 'multiDevice', true,
                  ${t.clock.now().toISOString()})`,
    );
    await queryRows(
      db,
      sql`INSERT INTO passkey_challenges (challenge, purpose, user_id, created_at, expires_at)
          VALUES (${`challenge-${marker}`}, 'registration', ${ada.id}, ${t.clock.now().toISOString()},
                  ${t.clock.now().toISOString()})`,
    );
    // A browser's push subscription, and a push it received (as the notifications area writes them).
    const subscriptionId = randomUUID();
    await queryRows(
      db,
      sql`INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, locale, created_at)
          VALUES (${subscriptionId}, ${ada.id}, ${`https://push.example.test/${marker}`}, ${`B${'A'.repeat(86)}`},
                  ${'A'.repeat(22)}, 'en-US', ${t.clock.now().toISOString()})`,
    );
    await queryRows(
      db,
      sql`INSERT INTO push_deliveries (subscription_id, push_key, delivered_at)
          VALUES (${subscriptionId}, ${randomUUID()}, ${t.clock.now().toISOString()})`,
    );
    // Her like and reply of a remote post (as federation's remote posts write them).
    const remotePostId = randomUUID();
    const now = t.clock.now().toISOString();
    await queryRows(
      db,
      sql`INSERT INTO federation_remote_posts (id, uri, author_id, url, published_at, received_at)
          VALUES (${remotePostId}, ${`https://remote.example/notes/${marker}`}, ${bob.id},
                  ${`https://remote.example/notes/${marker}`}, ${now}, ${now})`,
    );
    await queryRows(
      db,
      sql`INSERT INTO federation_remote_post_likes (post_id, user_id, activity_uri, created_at)
          VALUES (${remotePostId}, ${ada.id}, ${`https://travel.example/ap/users/${ada.id}#likes/${marker}`}, ${now})`,
    );
    await queryRows(
      db,
      sql`INSERT INTO federation_remote_post_replies (id, post_id, user_id, text, created_at)
          VALUES (${randomUUID()}, ${remotePostId}, ${ada.id}, ${`Lovely, says ${ada.user.nickname}`}, ${now})`,
    );
    // Two-factor on, and a sign-in completed with it: a secret, recovery codes, a spent ticket, devices.
    const device = await enableTwoFactor(t, ada.token);
    const challenged = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': 'Another device/1.0' },
      body: { login: ada.email, password: strongPassword },
    });
    const ticket = challenged.json.errors[0].meta.ticket;
    await ok(t.request({ method: 'POST', url: '/api/auth/two-factor', body: { ticket, code: device.code() } }), 200);
    await waitFor('the newsletter subscription', async () => {
      const rows = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM newsletter_subscribers WHERE email = ${ada.email.toLowerCase()}`,
      );
      return rows[0]!.n > 0;
    });
    assert.deepEqual(await counters(bobsPost.id), { likes: 2, bookmarks: 1, comments: 4 });

    const actor = await t.request({
      method: 'GET',
      url: `/ap/users/${ada.id}`,
      headers: { accept: 'application/activity+json' },
    });
    assert.equal(actor.statusCode, 200, 'her actor, with its key pairs');

    // Deletion asked, confirmed: her comment is hidden at once (with its counter), the rest waits.
    await ok(as(ada, 'DELETE', '/api/users/me', { password: strongPassword }), 202);
    await t.services.areas.accounts.mailFlows.drain();
    const token = /tmd_[A-Za-z0-9_-]+/.exec(t.mail.last(ada.email)!.text)![0];
    await ok(t.request({ method: 'POST', url: '/api/account/deletion/confirm', body: { token } }), 200);
    assert.deepEqual(await counters(bobsPost.id), { likes: 2, bookmarks: 1, comments: 3 });
    // What a resync of her posts' hashtags that failed at her confirmation's ban leaves for a retry.
    await t.deps.database.db.execute(
      sql`INSERT INTO after_commit_retries (work, key, filing, attempts, next_attempt_at, last_error, filed_at)
          VALUES ('hashtags.resyncOwner', ${ada.id}, ${randomUUID()}, 3, now() + interval '1 hour',
                  'canceling statement due to lock timeout', now())`,
    );

    t.clock.advance(graceDays * dayMs - 60_000);
    assert.deepEqual(await flushErasure(), { erased: 0, failed: 0 }, 'not before the grace period ends');
    t.clock.advance(2 * 60_000);
    assert.deepEqual(await flushErasure(), { erased: 1, failed: 0 });
    assert.deepEqual(await flushErasure(), { erased: 0, failed: 0 }, 'idempotent');

    // Counters on others' media: her like and bookmark are gone; her comment and the reply under it too.
    assert.deepEqual(await counters(bobsPost.id), { likes: 1, bookmarks: 0, comments: 2 });
    const comments = await visibleComments(bobsPost.id);
    assert.equal(comments.length, 2);
    const renamed = comments.find((comment) => comment.id === mention.json.data.id);
    assert.equal(renamed?.attributes.body, 'Ask @deleted-user about it');
    const bobsFollowers = await ok(as(bob, 'GET', '/api/users/me/followers'), 200);
    assert.equal(bobsFollowers.json.data.length, 0);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { login: ada.email, password: strongPassword },
    });
    assert.equal(login.statusCode, 401, 'nobody signs in as her');
    assert.equal((await ok(as(bob, 'GET', '/api/users/me/likes'), 200)).json.data.length, 0);
    const sponsored = await t.services.areas.accounts.users.find(dan.user.id);
    assert.equal(sponsored?.sponsoredBy, null, 'the account she sponsored stays, unlinked');
    const conversions = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM tracking_conversions WHERE click_ref = ${cydClick.json.data.id}`,
    );
    assert.equal(conversions[0]!.n, 1, 'commission accounting is kept');
    const verified = (await t.services.platform.audit.recent(200)).filter((entry) => entry.action === 'user.verified');
    assert.deepEqual(
      verified.map((entry) => [entry.targetType, entry.targetId]),
      [['user', null]],
      "the operator's action stays on record, without her id",
    );
    const coupon = await ok(admin('GET', `/admin/coupons/ERASE-${marker.toUpperCase()}/redemptions`), 200);
    assert.equal(coupon.json.data.length, 0);

    // Storage: none of her files is left (removed after the commit); Bob's are.
    const keys = await waitFor('her files to go', async () => {
      const now = await storedKeys(t.deps.storage);
      return adaMediaHex.some((hex) => now.some((key) => key.includes(hex))) ? null : now;
    });
    assert.ok(keys.some((key) => key.includes(bobsPost.id.replaceAll('-', ''))));
    assert.deepEqual(
      keys.filter((key) => key.includes(ada.hex) || key.includes(ada.id)),
      [],
    );

    // No column of any table holds her id, hex id, e-mail, username or nickname.
    const columns = await queryRows<{ schema: string; table: string; column: string }>(
      db,
      sql`SELECT c.table_schema AS "schema", c.table_name AS "table", c.column_name AS "column"
          FROM information_schema.columns AS c
          JOIN information_schema.tables AS tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
          WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg_toast%'
            AND tb.table_type = 'BASE TABLE'
            AND (c.data_type IN ('text', 'character varying', 'character', 'jsonb', 'json', 'uuid', 'ARRAY', 'USER-DEFINED'))`,
    );
    assert.ok(columns.length > 40, 'the scan sees the schema');
    const needles = [ada.id, ada.hex, ada.email, ada.username, ada.user.nickname!].map((value) => value.toLowerCase());
    const found: string[] = [];
    for (const { schema, table, column } of columns) {
      const rows = await queryRows<{ needle: string }>(
        db,
        sql`SELECT needle FROM unnest(${`{${needles.map((needle) => `"${needle}"`).join(',')}}`}::text[]) AS needle
            WHERE EXISTS (SELECT 1 FROM ${sql.identifier(schema)}.${sql.identifier(table)}
                          WHERE strpos(lower(${sql.identifier(column)}::text), needle) > 0)`,
      );
      for (const { needle } of rows) found.push(`${schema}.${table}.${column} holds ${needle}`);
    }
    assert.deepEqual(found, []);
  });
});
