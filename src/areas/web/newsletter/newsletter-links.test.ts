/**
 * The pages of the newsletter's mailed links: a GET or HEAD (what mail scanners and link checkers
 * send) changes nothing; the page's button, a plain form, does it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp, type TestResponse } from '../../../../test/helpers/app.ts';

const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

/** The page's form: its action, fields and button, for a browser without script. */
function formOf(res: TestResponse) {
  const form = /<form id="newsletter-form"[^>]*>[\s\S]*?<\/form>/.exec(res.body)?.[0];
  assert.ok(form, res.body);
  assert.match(form, /method="post"/);
  const action = /action="([^"]+)"/.exec(form)?.[1]?.replaceAll('&amp;', '&');
  assert.ok(action);
  const fields = [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]);
  return { action, payload: new URLSearchParams(fields).toString(), form };
}

/** The page honours the pages' CSP: a nonce policy, no inline style attribute, no script needed. */
function assertPage(res: TestResponse) {
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.match(
    String(res.headers['content-security-policy']),
    /script-src 'self' 'nonce-[^']+'; style-src 'self' 'nonce-/,
  );
  assert.equal(res.headers['cache-control'], 'no-store', 'the token stays out of caches');
  assert.match(res.body, /<meta name="robots" content="noindex"/);
  assert.doesNotMatch(res.body, /\sstyle="/);
  assert.match(res.body, /<header class="site-header">/);
}

describe('newsletter link pages', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const statusOf = async (email: string) => {
    const list = await t.request({ method: 'GET', url: '/admin/newsletter/subscribers?limit=200', token: adminToken });
    return list.json.data.find((row: { attributes: { email: string } }) => row.attributes.email === email)?.attributes
      .status;
  };
  const linksOf = async (email: string) => {
    await t.request({ method: 'POST', url: '/api/newsletter/subscribe', body: { email } });
    await t.services.areas.newsletter.newsletter.drain();
    const text = t.mail.last(email)!.text;
    const token = (kind: string) => new RegExp(`/newsletter/${kind}\\?token=([A-Za-z0-9_-]+)`).exec(text)![1]!;
    return {
      confirm: `/newsletter/confirm?token=${token('confirm')}`,
      unsubscribe: `/newsletter/unsubscribe?token=${token('unsubscribe')}`,
    };
  };

  it('confirms a subscription only by the button of the confirmation page, never by a GET or HEAD', async () => {
    const email = 'scanned@example.test';
    const links = await linksOf(email);
    const head = await t.request({ method: 'HEAD', url: links.confirm });
    assert.equal(head.statusCode, 200);
    const page = await t.request({ method: 'GET', url: links.confirm, headers: { 'accept-language': 'fr-FR' } });
    assertPage(page);
    assert.match(page.body, /Confirmez votre inscription/);
    assert.match(page.body, /scanned@example\.test/);
    assert.equal(await statusOf(email), 'pending', 'the GET and the HEAD confirmed nothing');

    const { action, payload, form } = formOf(page);
    assert.equal(action, links.confirm, 'the button posts the link');
    assert.match(form, /Confirmer mon inscription/);
    const clicked = await t.request({ method: 'POST', url: action, headers: formHeaders, payload });
    assertPage(clicked);
    assert.match(clicked.body, /Subscription confirmed/);
    assert.equal(await statusOf(email), 'confirmed');
    // A browser without body at all (some send none for a form without fields) reads as the empty form.
    const bare = await t.request({ method: 'POST', url: links.confirm });
    assert.equal(bare.statusCode, 200);
    assert.match(bare.body, /Already confirmed/);
    const extra = await t.request({ method: 'POST', url: links.confirm, headers: formHeaders, payload: 'x=1' });
    assert.equal(extra.statusCode, 422);
  });

  it('unsubscribes only by the button of the unsubscribe page, which posts the one-click body', async () => {
    const email = 'leaving@example.test';
    const links = await linksOf(email);
    const confirmPage = await t.request({ method: 'GET', url: links.confirm });
    const confirm = formOf(confirmPage);
    await t.request({ method: 'POST', url: confirm.action, headers: formHeaders, payload: confirm.payload });
    assert.equal(await statusOf(email), 'confirmed');

    assert.equal((await t.request({ method: 'HEAD', url: links.unsubscribe })).statusCode, 200);
    const page = await t.request({ method: 'GET', url: links.unsubscribe });
    assertPage(page);
    assert.match(page.body, /Unsubscribe from the newsletter/);
    assert.equal(await statusOf(email), 'confirmed', 'the GET and the HEAD unsubscribed nothing');

    const { action, payload } = formOf(page);
    assert.equal(action, links.unsubscribe);
    assert.equal(payload, 'List-Unsubscribe=One-Click', 'the body of RFC 8058');
    const clicked = await t.request({ method: 'POST', url: action, headers: formHeaders, payload });
    assertPage(clicked);
    assert.match(clicked.body, /You are unsubscribed/);
    assert.equal(await statusOf(email), 'unsubscribed');
    const again = await t.request({ method: 'GET', url: links.unsubscribe });
    assertPage(again);
    assert.match(again.body, /You are unsubscribed/);
    assert.doesNotMatch(again.body, /newsletter-form/, 'nothing left to click');
  });

  it('shows the errors of a bad link as the layout error page, or JSON when asked', async () => {
    const forged = await t.request({ method: 'GET', url: '/newsletter/confirm?token=nlc_forged' });
    assert.equal(forged.statusCode, 422);
    assert.match(forged.body, /<header class="site-header">/);
    const json = await t.request({
      method: 'POST',
      url: '/newsletter/confirm?token=nlc_forged',
      headers: { ...formHeaders, accept: 'application/json' },
      payload: '',
    });
    assert.equal(json.statusCode, 422);
    assert.equal(json.json.errors[0].code, 'invalidToken');
    const email = 'late@example.test';
    const links = await linksOf(email);
    t.clock.advance(48 * 3_600_000 + 1);
    const expired = await t.request({ method: 'GET', url: links.confirm, headers: { accept: 'application/json' } });
    assert.equal(expired.statusCode, 410);
    assert.equal(expired.json.errors[0].code, 'tokenExpired');
    const clickedLate = await t.request({ method: 'POST', url: links.confirm, headers: formHeaders });
    assert.equal(clickedLate.statusCode, 410);
    assert.equal(await statusOf(email), 'pending');
  });
});
