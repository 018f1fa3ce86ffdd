import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { startAppWithSmtpSink } from '../../../test/helpers/smtp-app.ts';
import type { SmtpSink } from '../../../test/support/smtp-sink.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
const tokenIn = (text: string, kind: 'confirm' | 'unsubscribe') => {
  const match = new RegExp(`/newsletter/${kind}\\?token=([A-Za-z0-9_-]+)`).exec(text);
  assert.ok(match, `no ${kind} link in:\n${text}`);
  return match[1]!;
};
const drain = (t: TestApp) => t.services.areas.newsletter.newsletter.drain();
/** The button of a confirmation link's page: its form posts the link's URL (docs/api.md, Newsletter). */
const clickConfirm = (t: TestApp, token: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: `/newsletter/confirm?token=${token}`, headers: { ...formHeaders, ...headers } });
const statusOf = async (t: TestApp, email: string) => {
  const list = await t.request({ method: 'GET', url: '/admin/newsletter/subscribers?limit=200', token: adminToken });
  return list.json.data.find((row: { attributes: { email: string } }) => row.attributes.email === email)?.attributes
    .status;
};

describe('newsletter through a real SMTP server', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let close: () => Promise<void>;
  before(async () => {
    ({ t, sink, close } = await startAppWithSmtpSink());
  });
  after(() => close());
  beforeEach(() => sink.clear());

  it('subscribes, confirms with the mailed link once, and unsubscribes in one click', async () => {
    const email = 'reader@example.test';
    const subscribe = await t.request({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      body: { email: ' Reader@Example.test '.trim() },
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.equal(subscribe.statusCode, 202);
    assert.equal(subscribe.body, '');

    const mail = await sink.waitForMessage((message) => message.to.includes(email));
    assert.equal(mail.subject, "Confirmez votre inscription à la lettre d'information");
    const confirmToken = tokenIn(mail.text, 'confirm');
    const unsubscribeToken = tokenIn(mail.text, 'unsubscribe');
    const unsubscribeUrl = `${t.deps.config.publicUrl}/newsletter/unsubscribe?token=${unsubscribeToken}`;
    assert.equal(mail.headers['list-unsubscribe'], `<${unsubscribeUrl}>`);
    assert.equal(mail.headers['list-unsubscribe-post'], 'List-Unsubscribe=One-Click');
    assert.ok(mail.html.includes(`href="${t.deps.config.publicUrl}/newsletter/confirm?token=${confirmToken}"`));
    assert.match(mail.html, /<html lang="fr">/);
    assert.equal(await statusOf(t, email), 'pending', 'nothing is confirmed before the click');

    const confirm = await clickConfirm(t, confirmToken, { 'accept-language': 'fr-FR', accept: 'text/html' });
    assert.equal(confirm.statusCode, 200);
    assert.match(String(confirm.headers['content-type']), /^text\/html/);
    assert.match(confirm.body, /Inscription confirmée/);
    assert.match(confirm.body, /reader@example\.test/);
    assert.equal(await statusOf(t, email), 'confirmed');

    const again = await t.request({ method: 'GET', url: `/newsletter/confirm?token=${confirmToken}` });
    assert.equal(again.statusCode, 200, 'followed again: a page, not an error');
    assert.match(again.body, /Already confirmed/);

    // RFC 8058: the mail client posts the List-Unsubscribe URL with this exact body.
    const oneClick = await t.request({
      method: 'POST',
      url: unsubscribeUrl.slice(t.deps.config.publicUrl.length),
      headers: formHeaders,
      payload: 'List-Unsubscribe=One-Click',
    });
    assert.equal(oneClick.statusCode, 200);
    assert.match(oneClick.body, /unsubscribed/);
    assert.equal(await statusOf(t, email), 'unsubscribed');

    // The link keeps working (idempotent) and an old confirmation link cannot resubscribe.
    const clickedLater = await t.request({
      method: 'GET',
      url: `/newsletter/unsubscribe?token=${unsubscribeToken}`,
    });
    assert.equal(clickedLater.statusCode, 200);
    assert.match(clickedLater.body, /You are unsubscribed/);
    assert.equal(await statusOf(t, email), 'unsubscribed');
    const oldConfirmation = await clickConfirm(t, confirmToken, { accept: 'application/json' });
    assert.equal(oldConfirmation.statusCode, 422);
    assert.equal(oldConfirmation.json.errors[0].code, 'tokenUsed');
    assert.equal(await statusOf(t, email), 'unsubscribed');
  });

  it('sends the web form a page and the address a confirmation mail in English by default', async () => {
    const email = 'web-reader@example.test';
    const page = await t.request({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: { ...formHeaders, accept: 'text/html' },
      payload: form({ email }),
    });
    assert.equal(page.statusCode, 202);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /Check your inbox/);
    const mail = await sink.waitForMessage((message) => message.to.includes(email));
    assert.equal(mail.subject, 'Confirm your newsletter subscription');
    assert.ok(mail.headers['list-unsubscribe']?.includes('/newsletter/unsubscribe?token='));
  });
});

describe('newsletter subscriptions', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const subscribe = async (email: string, headers: Record<string, string> = {}) => {
    const response = await t.request({ method: 'POST', url: '/api/newsletter/subscribe', body: { email }, headers });
    await drain(t);
    return response;
  };
  const confirmTokenOf = (email: string) => tokenIn(t.mail.last(email)!.text, 'confirm');

  it('never confirms an address unsubscribed at the same moment (the confirmation reads its link under the lock)', async () => {
    for (let round = 0; round < 8; round++) {
      const email = `race-${round}@example.test`;
      await subscribe(email);
      const text = t.mail.last(email)!.text;
      const [confirmed, unsubscribed] = await Promise.all([
        clickConfirm(t, tokenIn(text, 'confirm'), { accept: 'application/json' }),
        t.request({
          method: 'POST',
          url: `/newsletter/unsubscribe?token=${tokenIn(text, 'unsubscribe')}`,
          headers: formHeaders,
          payload: 'List-Unsubscribe=One-Click',
        }),
      ]);
      assert.equal(unsubscribed.statusCode, 200);
      // Whichever came first, the unsubscription stands: a confirmation after it finds its link spent.
      assert.ok([200, 422].includes(confirmed.statusCode), confirmed.body);
      assert.equal(await statusOf(t, email), 'unsubscribed', `round ${round}`);
    }
  });

  it('answers the same for a new, a pending and a confirmed address, and mails a confirmed one nothing', async () => {
    const email = 'same-answer@example.test';
    const first = await subscribe(email);
    const sentAfterFirst = t.mail.sent.length;
    await clickConfirm(t, confirmTokenOf(email));
    const known = await subscribe(email);
    assert.equal(t.mail.sent.length, sentAfterFirst, 'a confirmed address gets no new mail');
    assert.deepEqual([known.statusCode, known.body], [first.statusCode, first.body]);
    assert.equal(first.statusCode, 202);

    const webUnknown = await t.request({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: formHeaders,
      payload: form({ email: 'web-unknown@example.test' }),
    });
    const webKnown = await t.request({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: formHeaders,
      payload: form({ email }),
    });
    await drain(t);
    assert.equal(webKnown.statusCode, 202);
    assert.deepEqual([webKnown.statusCode, webKnown.body], [webUnknown.statusCode, webUnknown.body]);

    const asJson = await t.request({
      method: 'POST',
      url: '/newsletter/subscribe',
      body: { email: 'web-json@example.test', locale: 'fr-FR' },
      headers: { accept: 'application/json' },
    });
    await drain(t);
    assert.equal(asJson.statusCode, 202);
    assert.equal(asJson.body, '');
    assert.equal(
      t.mail.last('web-json@example.test')?.subject,
      "Confirmez votre inscription à la lettre d'information",
    );
  });

  it('keeps every confirmation link mailed working until the address is confirmed, then says it is', async () => {
    const email = 'twice@example.test';
    await subscribe(email);
    const first = confirmTokenOf(email);
    t.clock.advanceMinutes(1); // people ask again a minute later
    await subscribe(email);
    const second = confirmTokenOf(email);
    assert.notEqual(first, second);

    const confirmed = await clickConfirm(t, first);
    assert.equal(confirmed.statusCode, 200, "the first mail's link, after a second was sent");
    assert.match(confirmed.body, /Subscription confirmed/);
    assert.equal(await statusOf(t, email), 'confirmed');
    for (const token of [second, first]) {
      const page = await t.request({ method: 'GET', url: `/newsletter/confirm?token=${token}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Already confirmed/);
      assert.doesNotMatch(page.body, /<form id="newsletter-form"/, 'nothing left to click');
      const clicked = await clickConfirm(t, token);
      assert.equal(clicked.statusCode, 200);
      assert.match(clicked.body, /Already confirmed/);
    }
    assert.equal(await statusOf(t, email), 'confirmed');
  });

  it('caps confirmation mails at three an hour per address', async () => {
    const email = 'cap@example.test';
    await subscribe(email);
    const firstToken = confirmTokenOf(email);
    await subscribe(email);
    await subscribe(email);
    await subscribe(email);
    assert.equal(t.mail.sent.filter((mail) => mail.to === email).length, 3, 'three mails an hour at most');
    assert.equal((await clickConfirm(t, confirmTokenOf(email))).statusCode, 200, 'the newest link works');
    assert.equal((await clickConfirm(t, firstToken)).statusCode, 200, 'and so does the first');
    assert.equal(await statusOf(t, email), 'confirmed');
  });

  it('refuses forged, used and expired tokens, in HTML or JSON', async () => {
    const forged = await t.request({
      method: 'GET',
      url: '/newsletter/confirm?token=nlc_forged',
      headers: { accept: 'application/json' },
    });
    assert.equal(forged.statusCode, 422);
    assert.equal(forged.json.errors[0].code, 'invalidToken');
    assert.deepEqual(forged.json.errors[0].source, { parameter: 'token' });
    const forgedPage = await t.request({
      method: 'GET',
      url: '/newsletter/unsubscribe?token=%3Cscript%3E',
      headers: { 'accept-language': 'fr-FR' },
    });
    assert.equal(forgedPage.statusCode, 422);
    assert.match(String(forgedPage.headers['content-type']), /^text\/html/);
    assert.match(forgedPage.body, /Ce jeton n'est pas valide|Ce jeton n&#39;est pas valide/);
    assert.doesNotMatch(forgedPage.body, /<script>/);

    const missing = await t.request({ method: 'GET', url: '/newsletter/confirm' });
    assert.equal(missing.statusCode, 400);

    const email = 'expired@example.test';
    await subscribe(email);
    const token = confirmTokenOf(email);
    t.clock.advance(48 * 3_600_000 + 1);
    const expired = await t.request({
      method: 'GET',
      url: `/newsletter/confirm?token=${token}`,
      headers: { accept: 'application/json' },
    });
    assert.equal(expired.statusCode, 410);
    assert.equal(expired.json.errors[0].code, 'tokenExpired');
    assert.equal(await statusOf(t, email), 'pending');

    const unsubscribeToken = tokenIn(t.mail.last(email)!.text, 'unsubscribe');
    const stillValid = await t.request({ method: 'GET', url: `/newsletter/unsubscribe?token=${unsubscribeToken}` });
    assert.equal(stillValid.statusCode, 200, 'unsubscribe links live a year');
    t.clock.advance(366 * 24 * 3_600_000);
    const tooOld = await t.request({ method: 'GET', url: `/newsletter/unsubscribe?token=${unsubscribeToken}` });
    assert.equal(tooOld.statusCode, 410);
  });

  it('validates the bodies: addresses, locales, the one-click body and form bodies elsewhere', async () => {
    const bad = await t.request({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      body: { email: 'not-an-address' },
    });
    assert.equal(bad.statusCode, 422);
    const locale = await t.request({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      body: { email: 'ok@example.test', locale: 'de-DE' },
    });
    assert.equal(locale.statusCode, 422);
    const formOnApi = await t.request({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      headers: formHeaders,
      payload: form({ email: 'ok@example.test' }),
    });
    assert.equal(formOnApi.statusCode, 415, 'the API reads JSON only');
    const twice = await t.request({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: formHeaders,
      payload: 'email=a%40example.test&email=b%40example.test',
    });
    assert.equal(twice.statusCode, 422);
    const oneClick = await t.request({
      method: 'POST',
      url: '/newsletter/unsubscribe?token=nlu_x',
      headers: formHeaders,
      payload: 'List-Unsubscribe=Later',
    });
    assert.equal(oneClick.statusCode, 422);
    await drain(t);
  });

  it('lists subscribers for admins only, filtered by status, page by page', async () => {
    const user = await createUser(t);
    const asUser = await t.request({ method: 'GET', url: '/admin/newsletter/subscribers', token: user.token });
    assert.equal(asUser.statusCode, 401);
    const anonymous = await t.request({ method: 'GET', url: '/admin/newsletter/subscribers' });
    assert.equal(anonymous.statusCode, 401);
    const badStatus = await t.request({
      method: 'GET',
      url: '/admin/newsletter/subscribers?status=gone',
      token: adminToken,
    });
    assert.equal(badStatus.statusCode, 400);

    await subscribe('list-a@example.test');
    await subscribe('list-b@example.test');
    await clickConfirm(t, confirmTokenOf('list-b@example.test'));

    const confirmed = await t.request({
      method: 'GET',
      url: '/admin/newsletter/subscribers?status=confirmed&limit=200',
      token: adminToken,
    });
    assert.equal(confirmed.statusCode, 200);
    assert.ok(
      confirmed.json.data.every((row: { attributes: { status: string } }) => row.attributes.status === 'confirmed'),
    );
    assert.ok(
      confirmed.json.data.some(
        (row: { attributes: { email: string } }) => row.attributes.email === 'list-b@example.test',
      ),
    );
    const pending = await t.request({
      method: 'GET',
      url: '/admin/newsletter/subscribers?status=pending&limit=1',
      token: adminToken,
    });
    assert.equal(pending.json.data.length, 1);
    assert.equal(pending.json.data[0].type, 'newsletterSubscribers');
    assert.equal(pending.json.meta.limit, 1);
    assert.ok(pending.json.meta.total >= 2);
    const next = await t.request({
      method: 'GET',
      url: pending.json.links.next.slice(t.deps.config.publicUrl.length),
      token: adminToken,
    });
    assert.equal(next.statusCode, 200);
    assert.notEqual(next.json.data[0].id, pending.json.data[0].id);
    assert.equal(next.json.data[0].attributes.status, 'pending');
  });
});

describe('newsletter in maintenance mode', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('closes the web routes and the API route', async () => {
    const on = await t.request({
      method: 'PUT',
      url: '/admin/maintenance',
      token: adminToken,
      body: { enabled: true },
    });
    assert.equal(on.statusCode, 200);
    for (const request of [
      {
        method: 'POST' as const,
        url: '/newsletter/subscribe',
        headers: formHeaders,
        payload: form({ email: 'm@example.test' }),
      },
      { method: 'GET' as const, url: '/newsletter/confirm?token=nlc_x' },
      { method: 'GET' as const, url: '/newsletter/unsubscribe?token=nlu_x' },
      { method: 'POST' as const, url: '/api/newsletter/subscribe', body: { email: 'm@example.test' } },
    ]) {
      const closed = await t.request(request);
      assert.equal(closed.statusCode, 503, request.url);
      assert.ok(closed.headers['retry-after']);
    }
    await t.request({ method: 'PUT', url: '/admin/maintenance', token: adminToken, body: { enabled: false } });
  });
});

describe('newsletter rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  after(() => t.close());

  it('limits subscriptions per address and IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await t.request({ method: 'POST', url: '/api/newsletter/subscribe', body: { email: 'limited@example.test' } }))
          .statusCode,
      );
    }
    await drain(t);
    assert.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
  });
});
