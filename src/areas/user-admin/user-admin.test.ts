import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { makePng } from '../../../test/support/test-images.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { formatTimestamp } from '../../platform/http/time.ts';

describe('user administration', () => {
  let t: TestApp;
  const admin = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, ...(body !== undefined ? { body } : {}) });
  const login = (login: string, password = strongPassword) =>
    t.request({ method: 'POST', url: '/api/auth/login', body: { login, password } });
  const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });
  const newPost = async (user: TestUser) =>
    (await upload(t, '/api/users/me/media', user.token, await makePng({ width: 24, height: 24 }))).json.data;
  /** The user's public media; none while the account is banned (its list answers 404, as for an unknown user). */
  const publicMediaIds = async (user: TestUser) => {
    const res = await t.request({ method: 'GET', url: `/api/users/${user.id}/media?limit=100` });
    if (res.statusCode === 404) return [];
    return res.json.data.map((item: { id: string }) => item.id);
  };
  const fileStatus = async (hex: string, token?: string) =>
    (await t.request({ method: 'GET', url: `/media/${hex}.webp?size=thumb`, ...(token ? { token } : {}) })).statusCode;
  const auditOf = async (userId: string) =>
    (await t.services.platform.audit.recent(200)).filter((entry) => entry.targetId === userId);

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('refuses user tokens and missing tokens on every route', async () => {
    const user = await createUser(t);
    for (const [method, url] of [
      ['GET', '/admin/users'],
      ['GET', `/admin/users/${user.hex}`],
      ['PUT', `/admin/users/${user.hex}/verified`],
      ['PUT', `/admin/users/${user.hex}/ban`],
      ['PUT', `/admin/users/${user.hex}/unban`],
      ['POST', `/admin/users/${user.hex}/anonymize`],
    ] as const) {
      assert.equal((await t.request({ method, url, token: user.token })).statusCode, 401, `${method} ${url}`);
      assert.equal((await t.request({ method, url })).statusCode, 401, `${method} ${url} without a token`);
    }
    assert.equal((await me(user.token)).statusCode, 200, 'nothing happened to the account');
  });

  it('lists accounts newest first, searched and filtered, in keyset pages', async () => {
    const marker = `zq${Date.now().toString(36)}`;
    const a = await createUser(t, { username: `${marker}_alpha`, nickname: 'Alpha Person' });
    t.clock.advance(1000);
    const b = await createUser(t, { username: `${marker}_beta`, email: `BETA.${marker}@example.test` });
    t.clock.advance(1000);
    const c = await createUser(t, { username: `${marker}_gamma` });
    const ids = async (query: string) => {
      const res = await admin('GET', `/admin/users?limit=200&${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json.data.map((item: { id: string }) => item.id);
    };

    assert.deepEqual(await ids(`q=${marker}`), [c.id, b.id, a.id], 'newest first, by username');
    assert.deepEqual(await ids(`q=${encodeURIComponent(`beta.${marker.toUpperCase()}@`)}`), [b.id], 'e-mail, any case');
    assert.deepEqual(await ids(`q=${encodeURIComponent('alpha pers')}`).then((list) => list.includes(a.id)), true);
    assert.deepEqual(await ids(`q=${encodeURIComponent(`${marker}%`)}`), [], '% matches itself only');

    await admin('PUT', `/admin/users/${b.hex}/verified`, { verified: true });
    await admin('PUT', `/admin/users/${c.hex}/ban`, { reason: 'spam' });
    assert.deepEqual(await ids(`q=${marker}&verified=true`), [b.id]);
    assert.deepEqual(await ids(`q=${marker}&verified=false`), [c.id, a.id]);
    assert.deepEqual(await ids(`q=${marker}&banned=true`), [c.id]);
    assert.deepEqual(await ids(`q=${marker}&banned=false&verified=false`), [a.id]);
    assert.deepEqual(await ids(`q=${marker}&unconfirmed=true`), [c.id, b.id, a.id], 'none confirmed their e-mail');
    assert.deepEqual(await ids(`q=${marker}&unconfirmed=false`), []);
    assert.equal((await admin('GET', '/admin/users?banned=maybe')).statusCode, 400);

    const first = await admin('GET', `/admin/users?q=${marker}&limit=2`);
    assert.equal(first.statusCode, 200);
    assert.deepEqual(
      first.json.data.map((item: { id: string }) => item.id),
      [c.id, b.id],
    );
    const banned = first.json.data[0].attributes;
    assert.equal(banned.banned, true);
    assert.equal(banned.ban.reason, 'spam');
    assert.equal(banned.ban.until, null);
    assert.equal(typeof banned.email, 'string');
    assert.equal(banned.emailConfirmed, false);
    assert.equal(banned.anonymized, false);
    assert.equal(first.json.data[1].attributes.verified, true);
    const next = await t.request({ method: 'GET', url: first.json.links.next, token: adminToken });
    assert.deepEqual(
      next.json.data.map((item: { id: string }) => item.id),
      [a.id],
    );
    assert.equal(next.json.links.next, null);
  });

  it('shows one account with its counts, by hex or UUID; 404 when unknown', async () => {
    const ada = await createUser(t);
    const bob = await createUser(t);
    const post = await newPost(ada);
    await newPost(ada);
    const comment = await t.request({
      method: 'POST',
      url: `/api/media/${post.id}/comments`,
      token: ada.token,
      body: { body: 'Lovely light' },
    });
    assert.equal(comment.statusCode, 201);
    const report = await t.request({
      method: 'POST',
      url: `/api/users/${ada.hex}/reports`,
      token: bob.token,
      body: { reason: 'spam' },
    });
    assert.equal(report.statusCode, 201);
    // Reports of her media and of her comments count against her too.
    const mediaReport = await t.request({
      method: 'POST',
      url: `/api/media/${post.id}/reports`,
      token: bob.token,
      body: { reason: 'copyright' },
    });
    assert.equal(mediaReport.statusCode, 201);
    const commentReport = await t.request({
      method: 'POST',
      url: `/api/media/comments/${comment.json.data.id}/reports`,
      token: bob.token,
      body: { reason: 'harassment' },
    });
    assert.equal(commentReport.statusCode, 201);
    await t.request({ method: 'POST', url: `/api/users/me/following/${ada.id}`, token: bob.token });
    await t.request({ method: 'POST', url: `/api/users/me/following/${bob.id}`, token: ada.token });
    await login(ada.email);
    for (const id of [ada.hex, ada.id]) {
      const res = await admin('GET', `/admin/users/${id}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json.data.id, ada.id);
      assert.equal(res.json.data.attributes.username, ada.username);
      assert.equal(res.json.data.attributes.email, ada.email);
      const counts = res.json.data.attributes.counts;
      assert.equal(counts.media, 2);
      assert.equal(counts.followers, 1);
      assert.equal(counts.following, 1);
      assert.equal(counts.liveSessions, 2);
      assert.equal(counts.comments, 1);
      assert.equal(counts.reportsOpen, 3);
      assert.equal(counts.reportsTotal, 3);
      assert.equal(counts.passkeys, 0);
    }
    assert.equal((await admin('GET', '/admin/users/0123456789abcdef0123456789abcdef')).statusCode, 404);
    assert.equal((await admin('GET', '/admin/users/not-an-id')).statusCode, 422);
  });

  it('gives and takes the verified badge; a body of the wrong type is 422 and changes nothing', async () => {
    const ada = await createUser(t);
    for (const body of [{ verified: 'true' }, { verified: 1 }, {}, { verified: true, extra: 1 }]) {
      assert.equal((await admin('PUT', `/admin/users/${ada.hex}/verified`, body)).statusCode, 422);
    }
    assert.equal((await admin('GET', `/admin/users/${ada.hex}`)).json.data.attributes.verified, false);
    const on = await admin('PUT', `/admin/users/${ada.hex}/verified`, { verified: true });
    assert.equal(on.statusCode, 200);
    assert.equal(on.json.data.attributes.verified, true);
    const profile = await t.request({ method: 'GET', url: '/api/auth/me', token: ada.token });
    assert.equal(profile.json.data.attributes.verified, true);
    t.clock.advance(1000); // the audit log lists by time
    const off = await admin('PUT', `/admin/users/${ada.id}/verified`, { verified: false });
    assert.equal(off.json.data.attributes.verified, false);
    assert.equal(
      (await admin('PUT', '/admin/users/0123456789abcdef0123456789abcdef/verified', { verified: true })).statusCode,
      404,
    );
    const actions = (await auditOf(ada.id)).map((entry) => [entry.actor, entry.action, entry.payload]);
    assert.deepEqual(actions, [
      ['admin', 'user.verified', { verified: false }],
      ['admin', 'user.verified', { verified: true }],
    ]);
  });

  it('a ban ends every session at once, refuses login and hides the media; an unban brings them back', async () => {
    const ada = await createUser(t);
    const bob = await createUser(t);
    const post = await newPost(ada);
    const second = (await login(ada.email)).json.data.attributes.accessToken as string;
    assert.equal((await me(ada.token)).statusCode, 200);
    assert.equal((await me(second)).statusCode, 200);
    assert.ok((await publicMediaIds(ada)).includes(post.id));
    assert.equal(await fileStatus(post.attributes.hex), 200);

    for (const body of [
      { reason: 7 },
      {},
      { reason: '' },
      { reason: '   ' },
      { reason: 'x'.repeat(501) },
      { reason: 'spam', until: 'tomorrow' },
      { reason: 'spam', until: '2020-01-01T00:00:00Z' },
      { reason: 'spam', extra: true },
    ]) {
      assert.equal((await admin('PUT', `/admin/users/${ada.hex}/ban`, body)).statusCode, 422, JSON.stringify(body));
    }
    assert.equal((await me(ada.token)).statusCode, 200, 'nothing changed');

    const ban = await admin('PUT', `/admin/users/${ada.hex}/ban`, { reason: 'spam links' });
    assert.equal(ban.statusCode, 200);
    assert.equal(ban.json.data.attributes.banned, true);
    assert.equal(ban.json.data.attributes.ban.reason, 'spam links');
    assert.equal(ban.json.data.attributes.ban.at, formatTimestamp(t.clock.now()));
    assert.equal((await me(ada.token)).statusCode, 401, 'the very next request');
    assert.equal((await me(second)).statusCode, 401);
    const refused = await login(ada.email);
    assert.equal(refused.statusCode, 401, 'like a wrong password: no password oracle');
    assert.equal(refused.json.errors[0].code, 'invalidCredentials');
    assert.equal((await admin('GET', `/admin/users/${ada.hex}`)).json.data.attributes.counts.liveSessions, 0);

    assert.ok(!(await publicMediaIds(ada)).includes(post.id), 'out of public lists');
    assert.equal(await fileStatus(post.attributes.hex), 404, 'its files 404 to others');
    assert.equal(await t.services.areas.media.media.findVisibleMedia(post.id, bob.id), null);

    t.clock.advance(1000);
    const again = await admin('PUT', `/admin/users/${ada.id}/ban`, {
      reason: 'spam, twice',
      until: '2027-01-01T00:00:00Z',
    });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json.data.attributes.ban.reason, 'spam, twice');
    assert.equal(again.json.data.attributes.ban.until, '2027-01-01T00:00:00.000+00:00');
    assert.equal(again.json.data.attributes.ban.at, ban.json.data.attributes.ban.at, 'the ban in force goes on');

    t.clock.advance(1000);
    const unban = await admin('PUT', `/admin/users/${ada.hex}/unban`);
    assert.equal(unban.statusCode, 200);
    assert.equal(unban.json.data.attributes.banned, false);
    assert.equal(unban.json.meta.changed, true);
    assert.ok((await publicMediaIds(ada)).includes(post.id), 'back in public lists');
    assert.equal(await fileStatus(post.attributes.hex), 200);
    const back = await login(ada.email);
    assert.equal(back.statusCode, 200);
    assert.equal((await me(back.json.data.attributes.accessToken)).statusCode, 200);

    const noop = await admin('PUT', `/admin/users/${ada.hex}/unban`);
    assert.equal(noop.statusCode, 200);
    assert.equal(noop.json.meta.changed, false);

    const actions = (await auditOf(ada.id)).map((entry) => [entry.actor, entry.action]).reverse();
    assert.deepEqual(actions, [
      ['admin', 'user.ban'],
      ['admin', 'user.ban'],
      ['admin', 'user.unban'],
    ]);
  });

  it('answers 404 to a ban or unban of an unknown account', async () => {
    const unknown = '0123456789abcdef0123456789abcdef';
    assert.equal((await admin('PUT', `/admin/users/${unknown}/ban`, { reason: 'spam' })).statusCode, 404);
    assert.equal((await admin('PUT', `/admin/users/${unknown}/unban`)).statusCode, 404);
    assert.equal((await admin('POST', `/admin/users/${unknown}/anonymize`)).statusCode, 404);
  });

  it('a ban with an end is lifted by the bans job once it passes', async () => {
    const ada = await createUser(t);
    const post = await newPost(ada);
    const until = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    assert.equal((await admin('PUT', `/admin/users/${ada.hex}/ban`, { reason: 'cool down', until })).statusCode, 200);
    const early = await admin('POST', '/admin/jobs/flush/bans');
    assert.equal(early.statusCode, 200);
    assert.equal((await login(ada.email)).statusCode, 401, 'not before its end');

    t.clock.advance(3_600_000);
    const run = await admin('POST', '/admin/jobs/flush/bans');
    assert.equal(run.statusCode, 200);
    assert.ok(run.json.data.attributes.report.lifted >= 1);
    const user = await admin('GET', `/admin/users/${ada.hex}`);
    assert.equal(user.json.data.attributes.banned, false);
    assert.ok((await publicMediaIds(ada)).includes(post.id));
    assert.equal((await login(ada.email)).statusCode, 200);
    const lifted = (await auditOf(ada.id)).find((entry) => entry.action === 'user.unban');
    assert.equal(lifted?.actor, 'system');
  });

  it('login lifts a ban whose end has passed, before the job runs', async () => {
    const ada = await createUser(t);
    const post = await newPost(ada);
    const until = new Date(t.clock.now().getTime() + 60_000).toISOString();
    await admin('PUT', `/admin/users/${ada.hex}/ban`, { reason: 'one minute', until });
    assert.ok(!(await publicMediaIds(ada)).includes(post.id));
    t.clock.advance(61_000);
    const res = await login(ada.username);
    assert.equal(res.statusCode, 200);
    assert.equal((await me(res.json.data.attributes.accessToken)).statusCode, 200);
    assert.ok((await publicMediaIds(ada)).includes(post.id), 'the same unban path brought the media back');
  });

  it('anonymize erases the account everywhere, for good', async () => {
    const ada = await createUser(t);
    const bob = await createUser(t);
    const cyd = await createUser(t);
    const post = await newPost(ada);
    // A follow received (Ada's notification names Bob), and a follow given (Cyd's notification names Ada).
    await t.request({ method: 'POST', url: `/api/users/me/following/${ada.id}`, token: bob.token });
    await t.request({ method: 'POST', url: `/api/users/me/following/${cyd.id}`, token: ada.token });
    await t.request({ method: 'POST', url: '/api/auth/forgot-password', body: { email: ada.email } });
    await t.services.areas.accounts.mailFlows.drain();
    await admin('PUT', `/admin/users/${ada.hex}/verified`, { verified: true });
    // Others wrote her name: Bob in a comment mentioning her, Cyd in a report's details.
    const bobsPost = await newPost(bob);
    const mention = await t.request({
      method: 'POST',
      url: `/api/media/${bobsPost.id}/comments`,
      token: bob.token,
      body: { body: `Thanks @${ada.username}!` },
    });
    assert.equal(mention.statusCode, 201);
    const report = await t.request({
      method: 'POST',
      url: `/api/users/${ada.hex}/reports`,
      token: cyd.token,
      body: { reason: 'spam', details: `${ada.username.toUpperCase()} spams, see @${ada.username}` },
    });
    assert.equal(report.statusCode, 201);
    const cydFeed = await t.request({ method: 'GET', url: '/api/users/me/notifications', token: cyd.token });
    const followOf = (feed: { json: { data: { attributes: { type: string; data: Record<string, unknown> } }[] } }) =>
      feed.json.data.find((item) => item.attributes.type === 'follow.received')?.attributes.data;
    assert.equal(followOf(cydFeed)?.actorUsername, ada.username);
    const db = t.deps.database.db;
    const tokens = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM user_tokens WHERE user_id = ${ada.id}`,
    );
    assert.ok(tokens[0]!.n >= 1, 'a mailed link exists before');

    t.clock.advance(1000);
    const res = await admin('POST', `/admin/users/${ada.hex}/anonymize`);
    assert.equal(res.statusCode, 200);
    const erased = res.json.data.attributes;
    assert.equal(erased.anonymized, true);
    assert.match(erased.email, /^[0-9a-f]{32}@anonymized\.invalid$/);
    assert.match(erased.username, /^deleted_[0-9a-f]{22}$/);
    assert.equal(erased.nickname, null);

    assert.equal((await me(ada.token)).statusCode, 401, 'sessions ended');
    assert.equal((await login(ada.email)).statusCode, 401, 'nobody signs in as it');
    assert.equal(await fileStatus(post.attributes.hex), 404, 'media deleted');
    assert.equal((await admin('GET', `/admin/users/${ada.hex}`)).json.data.attributes.counts.media, 0);
    const renamed = await t.request({ method: 'GET', url: '/api/users/me/notifications', token: cyd.token });
    assert.deepEqual(followOf(renamed), {
      actorId: ada.id,
      actorUsername: erased.username,
      actorDisplayName: erased.username,
    });
    assert.equal((await admin('POST', `/admin/users/${ada.hex}/anonymize`)).statusCode, 409, 'irreversible, once');
    assert.equal((await admin('PUT', `/admin/users/${ada.hex}/ban`, { reason: 'late' })).statusCode, 404);
    assert.deepEqual(
      (await auditOf(ada.id)).map((entry) => [entry.action, entry.payload]),
      [
        ['user.anonymize', {}],
        ['user.verified', { verified: true }],
      ],
    );

    // No text column of any table still holds the former e-mail, username or nickname.
    const columns = await queryRows<{ table: string; column: string }>(
      db,
      sql`SELECT c.table_name AS "table", c.column_name AS "column"
          FROM information_schema.columns AS c
          JOIN information_schema.tables AS tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
          WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE'
            AND (c.data_type IN ('text', 'character varying', 'jsonb', 'json')
                 OR c.udt_name IN ('citext', '_text', '_varchar', '_citext'))`,
    );
    assert.ok(columns.length > 20, 'the scan sees the schema');
    const needles = [ada.email, ada.username, ada.user.nickname!].map((value) => value.toLowerCase());
    const found: string[] = [];
    for (const { table, column } of columns) {
      for (const needle of needles) {
        const rows = await queryRows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}
              WHERE strpos(lower(${sql.identifier(column)}::text), ${needle}) > 0`,
        );
        if (rows[0]!.n > 0) found.push(`${table}.${column} holds ${needle}`);
      }
    }
    assert.deepEqual(found, []);
  });
});
