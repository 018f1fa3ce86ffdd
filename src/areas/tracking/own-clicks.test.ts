import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { clientAddresses } from '../../../test/helpers/client-addresses.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { createOfferFactory, type OfferFactory } from '../../../test/helpers/offer-factory.ts';

/** A creator clicking an offer through their own photo: recorded, never credited (docs/api.md, "Own clicks"). */
describe("a creator's own clicks", () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let offers: OfferFactory;
  let mediaId: string;
  let mediaHex: string;

  // Every request comes from an address of its own, unless a test says otherwise.
  const freshIp = clientAddresses();
  const admin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, ...(body !== undefined ? { body } : {}) });
  const apiClick = (offerId: string, token?: string) =>
    t.request({
      method: 'POST',
      url: `/api/offers/${offerId}/clicks`,
      body: { mediaId },
      ...(token === undefined ? {} : { token }),
      headers: { 'user-agent': 'TravelMoments/2.4 (Android 14)', 'x-forwarded-for': freshIp() },
    });
  const go = async (offerId: string, headers: Record<string, string> = {}) => {
    const res = await t.request({
      method: 'GET',
      url: `/go/offer/${offerId}/media/${mediaHex}`,
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Firefox/127.0', ...headers },
    });
    assert.equal(res.statusCode, 302);
    return new URL(String(res.headers.location)).searchParams.get('tm_ref') ?? '';
  };
  const clickOf = async (ref: string) => (await admin('GET', `/admin/tracking/clicks/${ref}`)).json.data.attributes;
  const buy = async (ref: string) => {
    const res = await admin('POST', '/admin/tracking/conversions', {
      ref,
      amount: 10_000,
      currency: 'EUR',
      partnerTransactionId: `own-${ref}`,
    });
    assert.equal(res.statusCode, 201);
    return res.json.data.attributes.commission as number;
  };

  before(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    ada = await createUser(t);
    bob = await createUser(t);
    offers = await createOfferFactory(t, 'Hillside Lodge');
    const media = await createMediaRow(t, ada.id);
    mediaId = media.id;
    mediaHex = media.id.replaceAll('-', '');
  });
  after(() => t.close());

  it('records the signed-in owner’s click on the API, earns nothing on the purchase and reports it as their own', async () => {
    const offerId = await offers.newOffer();
    const own = await apiClick(offerId, ada.token);
    assert.equal(own.statusCode, 201);
    const reader = await apiClick(offerId, bob.token);
    assert.equal(reader.statusCode, 201);

    const ownClick = await clickOf(own.json.data.id);
    assert.equal(ownClick.creatorId, ada.id, 'the click stays on her photo');
    assert.equal(ownClick.ownClick, true);
    assert.equal(ownClick.credited, false);
    assert.equal(await buy(own.json.data.id), 0, 'her own purchase earns her nothing');
    const readerClick = await clickOf(reader.json.data.id);
    assert.deepEqual([readerClick.ownClick, readerClick.credited], [false, true]);
    assert.equal(await buy(reader.json.data.id), 700, 'a reader’s purchase earns her 7 %');

    const report = (await admin('GET', `/admin/tracking/offer/${offerId}`)).json.data.attributes;
    assert.deepEqual([report.clicks, report.creditedClicks, report.ownClicks, report.conversions], [2, 1, 1, 2]);
    assert.deepEqual(report.totals, [{ currency: 'EUR', conversions: 2, revenue: 20_000, commission: 700 }]);

    const earnings = await t.request({ method: 'GET', url: '/api/users/me/earnings', token: ada.token });
    assert.equal(earnings.statusCode, 200);
    const byOwn = earnings.json.data.map((row: { attributes: { ownClick: boolean; commission: number } }) => [
      row.attributes.ownClick,
      row.attributes.commission,
    ]);
    assert.deepEqual(byOwn.sort(), [
      [false, 700],
      [true, 0],
    ]);
    assert.deepEqual(earnings.json.meta.totals, [{ currency: 'EUR', conversions: 1, commission: 700 }]);
  });

  it('takes a /go visit from the owner’s signed-in browser (the web sign-in cookie) for their own click', async () => {
    const offerId = await offers.newOffer();
    // A reader on the same connection clicked first: the owner's click must not take theirs over.
    const ip = freshIp();
    const readerRef = await go(offerId, { 'x-forwarded-for': ip });
    const ownRef = await go(offerId, { 'x-forwarded-for': ip, cookie: `tm_session=${ada.token}` });
    assert.notEqual(ownRef, readerRef);
    const own = await clickOf(ownRef);
    assert.deepEqual([own.ownClick, own.credited, own.viewerId, own.creatorId], [true, false, ada.id, ada.id]);
    assert.equal(await buy(ownRef), 0);
    assert.equal((await clickOf(readerRef)).credited, true);
    assert.equal(
      await go(offerId, { 'x-forwarded-for': freshIp(), cookie: `tm_session=${ada.token}` }),
      ownRef,
      'her next visit within 30 minutes is the same click, wherever she is',
    );

    const signedInReader = await clickOf(await go(offerId, { cookie: `tm_session=${bob.token}` }));
    assert.deepEqual(
      [signedInReader.ownClick, signedInReader.credited, signedInReader.viewerId],
      [false, true, bob.id],
    );
    const unknownCookie = await clickOf(await go(offerId, { cookie: 'tm_session=not-a-session' }));
    assert.deepEqual([unknownCookie.ownClick, unknownCookie.credited, unknownCookie.viewerId], [false, true, null]);

    const report = (await admin('GET', `/admin/tracking/media/${mediaId}`)).json.data.attributes;
    assert.deepEqual([report.ownClicks, report.creditedClicks], [2, 4], 'both tests’ clicks on her photo');
  });
});
