import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { adminToken, createTestApp, type TestApp, type TestRequest } from '../../../test/helpers/app.ts';
import { clientAddresses } from '../../../test/helpers/client-addresses.ts';
import { createUser, strongPassword, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { createOfferFactory, type OfferFactory } from '../../../test/helpers/offer-factory.ts';
import { isBotOrPrefetch } from './bots.ts';
import { commissionOf } from './money.ts';
import { partnerRedirectUrl } from './partner-url.ts';
import { trackingClicks } from './tables.ts';

/** Half-up rounding of amount × bps / 10000, written independently of money.ts. */
function expectedCommission(amount: bigint, bps: bigint): bigint {
  const product = amount * bps;
  const quotient = product / 10000n;
  return (product % 10000n) * 2n >= 10000n ? quotient + 1n : quotient;
}

const partnerUrl = 'https://partner.example/book?room=2&lang=fr#dates';
const withRef = (ref: string) => `https://partner.example/book?room=2&lang=fr&tm_ref=${ref}#dates`;

describe('clicks, redirects and commissions', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let establishmentId: string;
  let offerId: string;
  let expiredOfferId: string;
  let mediaId: string;
  let mediaHex: string;
  let hiddenMediaId: string;
  let offers: OfferFactory;

  // Every anonymous request comes from an address of its own, unless a test says otherwise.
  const freshIp = clientAddresses();
  const visit = (options: TestRequest) =>
    t.request({ ...options, headers: { 'x-forwarded-for': freshIp(), ...options.headers } });
  const admin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.request({ method, url, token: adminToken, ...(body !== undefined ? { body } : {}) });
  const click = (offer: string, body: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
    visit({ method: 'POST', url: `/api/offers/${offer}/clicks`, body, ...options });
  const newOffer = (fields: Parameters<OfferFactory['newOffer']>[0] = {}) =>
    offers.newOffer({ commissionRateBps: 750, partnerUrl, ...fields });
  const conversion = (ref: string, fields: Record<string, unknown> = {}) =>
    admin('POST', '/admin/tracking/conversions', {
      ref,
      amount: 12_345,
      currency: 'EUR',
      partnerTransactionId: `txn-${randomInt(1e9)}-${randomInt(1e9)}`,
      ...fields,
    });

  before(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    ada = await createUser(t);
    bob = await createUser(t);
    offers = await createOfferFactory(t, 'Lakeside Ecolodge', 'ecolodge');
    establishmentId = offers.establishmentId;
    offerId = await newOffer();
    expiredOfferId = await newOffer({ validUntil: new Date(t.clock.now().getTime() - 60_000) });
    const media = await createMediaRow(t, ada.id);
    mediaId = media.id;
    mediaHex = media.id.replaceAll('-', '');
    hiddenMediaId = (await createMediaRow(t, ada.id, { published: false })).id;
  });
  after(() => t.close());

  describe('POST /api/offers/{id}/clicks', () => {
    it('records a click credited to the media owner and answers the ref and the redirect URL', async () => {
      const res = await click(offerId, { mediaId }, { headers: { 'user-agent': 'Mozilla/5.0 (anon one)' } });
      assert.equal(res.statusCode, 201);
      const { id, attributes } = res.json.data;
      assert.equal(res.json.data.type, 'tracking-clicks');
      assert.match(attributes.ref, /^[A-Za-z0-9_-]{22}$/);
      assert.equal(id, attributes.ref);
      assert.equal(attributes.redirectUrl, withRef(attributes.ref));
      assert.equal(attributes.offerId, offerId);
      assert.equal(attributes.mediaId, mediaId);
      const seen = (await admin('GET', `/admin/tracking/clicks/${attributes.ref}`)).json.data.attributes;
      assert.equal(seen.creatorId, ada.id);
      assert.equal(seen.viewerId, null);
      assert.equal(seen.establishmentId, establishmentId);
      assert.equal(seen.bot, false);
      assert.equal(seen.credited, true);
      assert.equal(seen.source, 'api');
      assert.equal(seen.commissionRateBps, 750);
    });

    it('counts a viewer clicking twice within 30 minutes once, and again after', async () => {
      const first = await click(offerId, { mediaId: mediaHex }, { token: bob.token });
      assert.equal(first.statusCode, 201);
      assert.equal(
        (await admin('GET', `/admin/tracking/clicks/${first.json.data.id}`)).json.data.attributes.viewerId,
        bob.id,
      );
      t.clock.advance(29 * 60 * 1000);
      const again = await click(offerId, { mediaId }, { token: bob.token });
      assert.equal(again.statusCode, 200);
      assert.equal(again.json.data.id, first.json.data.id);
      t.clock.advance(2 * 60 * 1000);
      const later = await click(offerId, { mediaId }, { token: bob.token });
      assert.equal(later.statusCode, 201);
      assert.notEqual(later.json.data.id, first.json.data.id);
    });

    it('records one click for identical clicks at the same moment', async () => {
      const dora = await createUser(t);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => click(offerId, { mediaId }, { token: dora.token })),
      );
      assert.deepEqual(answers.map((res) => res.statusCode).sort(), [200, 200, 200, 200, 200, 200, 200, 201]);
      assert.equal(new Set(answers.map((res) => res.json.data.id)).size, 1);
    });

    it('counts anonymous duplicates by IP, whatever the User-Agent', async () => {
      const ip = '192.0.2.77';
      const first = await click(
        offerId,
        { mediaId },
        { headers: { 'user-agent': 'Mozilla/5.0 (dedup test)', 'x-forwarded-for': ip } },
      );
      const again = await click(
        offerId,
        { mediaId },
        { headers: { 'user-agent': 'Mozilla/5.0 (another browser)', 'x-forwarded-for': ip } },
      );
      const other = await click(offerId, { mediaId }, { headers: { 'user-agent': 'Mozilla/5.0 (dedup test)' } });
      assert.deepEqual([first.statusCode, again.statusCode, other.statusCode], [201, 200, 201]);
      assert.equal(again.json.data.id, first.json.data.id);
      assert.notEqual(other.json.data.id, first.json.data.id);
      // The hash of the IP is kept for the window only, and never the IP itself.
      const keyOf = async (ref: string) =>
        (
          await t.deps.database.db
            .select({ key: trackingClicks.visitorKey })
            .from(trackingClicks)
            .where(eq(trackingClicks.ref, ref))
        )[0]?.key;
      const key = await keyOf(first.json.data.id);
      assert.match(String(key), /^[A-Za-z0-9_-]{43}$/);
      assert.ok(!String(key).includes(ip));
      t.clock.advance(31 * 60 * 1000);
      await click(offerId, { mediaId }, { headers: { 'user-agent': 'Mozilla/5.0 (clears old keys)' } });
      assert.equal(await keyOf(first.json.data.id), null);
    });

    it('records bots and prefetches without crediting them', async () => {
      const agents: Record<string, string>[] = [
        { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
        { 'user-agent': 'facebookexternalhit/1.1' },
        { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
        { 'user-agent': 'WhatsApp/2.23.20.0' },
        { 'user-agent': 'Twitterbot/1.0' },
        { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' },
        { 'user-agent': '' },
        { 'user-agent': 'Mozilla/5.0 (prefetching browser)', 'sec-purpose': 'prefetch;prerender' },
        { 'user-agent': 'Mozilla/5.0 (old prefetch)', purpose: 'prefetch' },
      ];
      for (const headers of agents) {
        const res = await click(offerId, { mediaId }, { headers });
        assert.equal(res.statusCode, 201, JSON.stringify(headers));
        const seen = (await admin('GET', `/admin/tracking/clicks/${res.json.data.id}`)).json.data.attributes;
        assert.equal(seen.bot, true, JSON.stringify(headers));
        assert.equal(seen.credited, false);
        const converted = await conversion(res.json.data.id, { amount: 10_000 });
        assert.equal(converted.statusCode, 201);
        assert.equal(converted.json.data.attributes.commission, 0, 'a bot click earns nothing');
      }
    });

    it('does not take the real click after a prefetch for a duplicate of it', async () => {
      const browser = { 'user-agent': 'Mozilla/5.0 (prefetch then click)', 'x-forwarded-for': freshIp() };
      const prefetch = await click(offerId, { mediaId }, { headers: { ...browser, 'sec-purpose': 'prefetch' } });
      const real = await click(offerId, { mediaId }, { headers: browser });
      assert.deepEqual([prefetch.statusCode, real.statusCode], [201, 201]);
      assert.notEqual(real.json.data.id, prefetch.json.data.id);
      const seen = (await admin('GET', `/admin/tracking/clicks/${real.json.data.id}`)).json.data.attributes;
      assert.equal(seen.credited, true);
    });

    it('takes ordinary browsers and apps for people', () => {
      for (const agent of [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
        'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
        'TravelMoments/2.4 (Android 14)',
      ]) {
        assert.equal(isBotOrPrefetch({ 'user-agent': agent }), false, agent);
      }
    });

    it('refuses bad input with the right status', async () => {
      assert.equal((await click('not-a-uuid', { mediaId })).json.errors[0].code, 'invalidId');
      assert.equal((await click(crypto.randomUUID(), { mediaId })).statusCode, 404);
      const gone = await click(expiredOfferId, { mediaId });
      assert.equal(gone.statusCode, 410);
      assert.equal(gone.json.errors[0].code, 'offerGone');
      assert.equal(gone.json.errors[0].meta.establishmentId, establishmentId);
      const hidden = await click(offerId, { mediaId: hiddenMediaId }, { token: ada.token });
      assert.equal(hidden.statusCode, 404, "even the owner's own unpublished media is not public");
      assert.equal(hidden.json.errors[0].source.pointer, '/mediaId');
      assert.equal((await click(offerId, { mediaId: crypto.randomUUID() })).statusCode, 404);
      for (const body of [{}, { mediaId: 'nope' }, { mediaId: 42 }, { mediaId, extra: true }]) {
        assert.equal((await click(offerId, body)).statusCode, 422, JSON.stringify(body));
      }
    });
  });

  describe('GET /go/offer/...', () => {
    it('records the click and redirects to exactly the stored URL plus the reference', async () => {
      const res = await visit({
        method: 'GET',
        url: `/go/offer/${offerId}/media/${mediaHex}`,
        headers: { 'user-agent': 'Mozilla/5.0 (go test)' },
      });
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers['cache-control'], 'no-store');
      const location = String(res.headers.location);
      const ref = new URL(location).searchParams.get('tm_ref') ?? '';
      assert.equal(location, withRef(ref));
      const seen = (await admin('GET', `/admin/tracking/clicks/${ref}`)).json.data.attributes;
      assert.equal(seen.source, 'redirect');
      assert.equal(seen.creatorId, ada.id);
      assert.equal(seen.mediaId, mediaId);

      const plain = await visit({
        method: 'GET',
        url: `/go/offer/${offerId}?tm_ref=forged&url=https://evil.example/`,
      });
      assert.equal(plain.statusCode, 302);
      const plainRef = new URL(String(plain.headers.location)).searchParams.getAll('tm_ref');
      assert.equal(plainRef.length, 1);
      assert.equal(plain.headers.location, withRef(plainRef[0] ?? ''), 'the query of the request changes nothing');
      assert.equal((await admin('GET', `/admin/tracking/clicks/${plainRef[0]}`)).json.data.attributes.mediaId, null);
    });

    it('keeps URLs without a query or with a bare host exactly', async () => {
      for (const stored of ['https://partner.example', 'http://partner.example/path/', 'https://partner.example/?']) {
        const id = await newOffer({ partnerUrl: stored });
        const res = await visit({ method: 'GET', url: `/go/offer/${id}` });
        const location = String(res.headers.location);
        const ref = location.slice(location.indexOf('tm_ref=') + 7);
        assert.match(ref, /^[A-Za-z0-9_-]{22}$/);
        assert.equal(location, `${stored}${stored.endsWith('?') ? '' : '?'}tm_ref=${ref}`);
      }
    });

    it('records a HEAD request (a link checker) as a bot', async () => {
      const res = await visit({
        method: 'HEAD',
        url: `/go/offer/${offerId}/media/${mediaId}`,
        headers: { 'user-agent': 'Mozilla/5.0 (head)' },
      });
      assert.equal(res.statusCode, 302);
      const ref = new URL(String(res.headers.location)).searchParams.get('tm_ref');
      assert.equal((await admin('GET', `/admin/tracking/clicks/${ref}`)).json.data.attributes.bot, true);
    });

    it('redirects for a media that is not public without crediting anyone', async () => {
      const res = await visit({ method: 'GET', url: `/go/offer/${offerId}/media/${hiddenMediaId}` });
      assert.equal(res.statusCode, 302);
      const ref = new URL(String(res.headers.location)).searchParams.get('tm_ref');
      const seen = (await admin('GET', `/admin/tracking/clicks/${ref}`)).json.data.attributes;
      assert.equal(seen.mediaId, null);
      assert.equal(seen.creatorId, null);
      assert.equal(seen.credited, false);
    });

    it('answers 410 with a page pointing to the establishment for an offer that has ended', async () => {
      const page = await visit({
        method: 'GET',
        url: `/go/offer/${expiredOfferId}`,
        headers: { accept: 'text/html', 'accept-language': 'fr-FR' },
      });
      assert.equal(page.statusCode, 410);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.body, new RegExp(`href="/api/establishments/${establishmentId}"`));
      assert.match(page.body, /Cette offre est terminée/);
      assert.equal(page.headers.location, undefined);
      const json = await visit({
        method: 'GET',
        url: `/go/offer/${expiredOfferId}/media/${mediaId}`,
        headers: { accept: 'application/json' },
      });
      assert.equal(json.statusCode, 410);
      assert.equal(json.json.errors[0].code, 'offerGone');
      assert.equal((await visit({ method: 'GET', url: `/go/offer/${crypto.randomUUID()}` })).statusCode, 404);
      assert.equal((await visit({ method: 'GET', url: '/go/offer/12' })).statusCode, 422);
    });

    it('never redirects anywhere but an http(s) partner URL (checked again at redirect time)', async () => {
      for (const bad of [
        'javascript:alert(1)',
        'data:text/html,hi',
        '//evil.example/',
        '/relative',
        'ftp://partner.example/',
        'https://user:pass@partner.example/',
        'vbscript:msgbox',
        'not a url',
      ]) {
        assert.equal(partnerRedirectUrl(bad, 'r'), null, bad);
      }
      const id = await newOffer();
      await t.deps.database.db.execute(
        (await import('drizzle-orm'))
          .sql`UPDATE offers SET partner_url = 'https://user:pass@evil.example/' WHERE id = ${id}`,
      );
      const res = await visit({ method: 'GET', url: `/go/offer/${id}`, headers: { accept: 'application/json' } });
      assert.equal(res.statusCode, 410);
      assert.equal(res.headers.location, undefined);
      assert.equal((await click(id, { mediaId })).statusCode, 410);
    });
  });

  describe('POST /admin/tracking/conversions', () => {
    let ref: string;
    before(async () => {
      const res = await click(offerId, { mediaId }, { headers: { 'user-agent': 'Mozilla/5.0 (conversions)' } });
      ref = res.json.data.id;
    });

    it('records a conversion with the commission in minor units, audited, and a replay changes nothing', async () => {
      const body = { ref, amount: 19_990, currency: 'EUR', partnerTransactionId: 'booking-0001' };
      const first = await admin('POST', '/admin/tracking/conversions', body);
      assert.equal(first.statusCode, 201);
      assert.equal(first.json.data.type, 'tracking-conversions');
      // 19990 × 750 / 10000 = 1499.25 -> 1499
      assert.equal(first.json.data.attributes.commission, 1499);
      assert.equal(first.json.data.attributes.amount, 19_990);
      const replay = await admin('POST', '/admin/tracking/conversions', { ...body, amount: 50_000 });
      assert.equal(replay.statusCode, 200);
      assert.deepEqual(replay.json, first.json);
      const report = (await admin('GET', `/admin/tracking/clicks/${ref}`)).json.data.attributes;
      assert.equal(report.conversions.length, 1);
      assert.deepEqual(report.totals, [{ currency: 'EUR', conversions: 1, revenue: 19_990, commission: 1499 }]);
      const audit = await admin('GET', '/admin/audit?limit=100');
      assert.ok(
        audit.json.data.some(
          (entry: { attributes: { action: string; target: { id: string } | null; payload: { commission: string } } }) =>
            entry.attributes.action === 'tracking.conversion' &&
            entry.attributes.target?.id === ref &&
            entry.attributes.payload.commission === '1499',
        ),
      );
      const half = await conversion(ref, { amount: 200 }); // 15.0 exactly
      assert.equal(half.json.data.attributes.commission, 15);
      const roundsUp = await conversion(ref, { amount: 2_000_066 }); // 150004.95 -> 150005
      assert.equal(roundsUp.json.data.attributes.commission, 150_005);
      const small = await conversion(ref, { amount: 2 }); // 0.15 -> 0
      assert.equal(small.json.data.attributes.commission, 0);
      const largest = await conversion(ref, { amount: 999_999_999_998 }); // × 0.075 = 74999999999.85
      assert.equal(largest.json.data.attributes.commission, 75_000_000_000);
      const tie = await conversion(ref, { amount: 20_002 }); // 1500.15 -> 1500; 2 × 750 / 10000 = 0.15
      assert.equal(tie.json.data.attributes.commission, 1500);
      const upAtHalf = await conversion(ref, { amount: 20_020 }); // 1501.5 -> 1502 (half up)
      assert.equal(upAtHalf.json.data.attributes.commission, 1502);
    });

    it('is exact on 1,000 random amounts', async () => {
      const clicked = await click(offerId, { mediaId }, { headers: { 'user-agent': 'Mozilla/5.0 (thousand)' } });
      const thousandRef = clicked.json.data.id;
      let revenue = 0n;
      let commission = 0n;
      for (let index = 0; index < 1000; index += 1) {
        // Up to 10^12: amount × rate passes 2^53, where float arithmetic would lose cents.
        const amount = BigInt(index % 2 === 0 ? randomInt(1, 1_000_000_000_000) : randomInt(1, 100_000));
        const res = await conversion(thousandRef, { amount: Number(amount), partnerTransactionId: `bulk-${index}` });
        assert.equal(res.statusCode, 201);
        const expected = expectedCommission(amount, 750n);
        assert.equal(BigInt(res.json.data.attributes.commission), expected, `amount ${amount}`);
        revenue += amount;
        commission += expected;
      }
      const report = (await admin('GET', `/admin/tracking/clicks/${thousandRef}`)).json.data.attributes;
      assert.equal(report.conversions.length, 100, 'the click shows its first 100 conversions');
      assert.deepEqual(report.totals, [
        {
          currency: 'EUR',
          conversions: 100,
          revenue: report.totals[0].revenue,
          commission: report.totals[0].commission,
        },
      ]);
      const offerReport = (await admin('GET', `/admin/tracking/offer/${offerId}`)).json.data.attributes;
      const eur = offerReport.totals.find((total: { currency: string }) => total.currency === 'EUR');
      assert.ok(BigInt(eur.revenue) >= revenue && BigInt(eur.commission) >= commission);
      for (let index = 0; index < 1000; index += 1) {
        const amount = BigInt(randomInt(1, 2 ** 48)) * BigInt(randomInt(1, 3000));
        const bps = randomInt(0, 10_001);
        assert.equal(commissionOf(amount, bps), expectedCommission(amount, BigInt(bps)));
      }
    });

    it('refuses bad postbacks without writing anything', async () => {
      const cases: [Record<string, unknown>, number, string][] = [
        [{ amount: -100 }, 422, 'validationFailed'],
        [{ amount: 0 }, 422, 'validationFailed'],
        [{ amount: 12.5 }, 422, 'validationFailed'],
        [{ amount: 'NaN' }, 422, 'validationFailed'],
        [{ amount: 1e13 }, 422, 'validationFailed'],
        [{ currency: 'XYZ' }, 422, 'validationFailed'],
        [{ currency: 'eur' }, 422, 'validationFailed'],
        [{ currency: 'USD' }, 422, 'currencyMismatch'],
        [{ ref: 'AAAAAAAAAAAAAAAAAAAAAA' }, 404, 'notFound'],
        [{ ref: '../../etc' }, 404, 'notFound'],
        [{ occurredAt: 'yesterday' }, 422, 'validationFailed'],
        [{ occurredAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString() }, 422, 'validationFailed'],
        [{ occurredAt: new Date(t.clock.now().getTime() - 3_600_000).toISOString() }, 422, 'outsideAttributionWindow'],
        [{ partnerTransactionId: '' }, 422, 'validationFailed'],
        [{ partnerTransactionId: '   ' }, 422, 'validationFailed'],
        [{ partnerTransactionId: 'x'.repeat(201) }, 422, 'validationFailed'],
        [{ extra: 1 }, 422, 'validationFailed'],
      ];
      for (const [fields, status, code] of cases) {
        const res = await conversion(ref, {
          ...fields,
          partnerTransactionId: fields.partnerTransactionId ?? 'refused-1',
        });
        assert.equal(res.statusCode, status, JSON.stringify(fields));
        assert.equal(res.json.errors[0].code, code, JSON.stringify(fields));
      }
      const mismatch = await conversion(ref, { currency: 'USD' });
      assert.equal(mismatch.json.errors[0].meta.expected, 'EUR');
      // Nothing was written: the id refused above is still free.
      assert.equal((await conversion(ref, { partnerTransactionId: 'refused-1' })).statusCode, 201);
      assert.equal(
        (await t.request({ method: 'POST', url: '/admin/tracking/conversions', token: ada.token, body: {} }))
          .statusCode,
        401,
      );
    });

    it('closes the attribution window 30 days after the click', async () => {
      const res = await click(offerId, { mediaId }, { headers: { 'user-agent': 'Mozilla/5.0 (window)' } });
      const windowRef = res.json.data.id;
      t.clock.advance(30 * 24 * 3_600_000 - 1000);
      assert.equal((await conversion(windowRef)).statusCode, 201);
      t.clock.advance(2000);
      const late = await conversion(windowRef);
      assert.equal(late.statusCode, 422);
      assert.equal(late.json.errors[0].code, 'outsideAttributionWindow');
    });
  });

  describe('reports and earnings', () => {
    it('reports clicks, credited clicks, conversions, revenue and commission per target in a window', async () => {
      const other = await newOffer({ commissionRateBps: 1000 });
      const start = new Date(t.clock.now().getTime());
      const carol = await createUser(t);
      const carolMedia = await createMediaRow(t, carol.id);
      const human = await click(other, { mediaId: carolMedia.id }, { headers: { 'user-agent': 'Mozilla/5.0 (r1)' } });
      const robot = await click(other, { mediaId: carolMedia.id }, { headers: { 'user-agent': 'Googlebot/2.1' } });
      const noMedia = await visit({
        method: 'GET',
        url: `/go/offer/${other}`,
        headers: { 'user-agent': 'X (r3)' },
      });
      assert.equal(noMedia.statusCode, 302);
      await conversion(human.json.data.id, { amount: 10_005 }); // 1000.5 -> 1001
      await conversion(robot.json.data.id, { amount: 5000 });
      const expected = {
        clicks: 3,
        creditedClicks: 1,
        botClicks: 1,
        conversions: 2,
        totals: [{ currency: 'EUR', conversions: 2, revenue: 15_005, commission: 1001 }],
      };
      const pick = ({ clicks, creditedClicks, botClicks, conversions, totals }: Record<string, unknown>) => ({
        clicks,
        creditedClicks,
        botClicks,
        conversions,
        totals,
      });
      const byOffer = await admin('GET', `/admin/tracking/offer/${other}`);
      assert.equal(byOffer.statusCode, 200);
      assert.equal(byOffer.json.data.type, 'tracking-reports');
      assert.deepEqual(pick(byOffer.json.data.attributes), expected);
      const carolHex = carol.id.replaceAll('-', '');
      const byUser = (await admin('GET', `/admin/tracking/user/${carolHex}`)).json.data.attributes;
      assert.deepEqual(pick(byUser), { ...expected, clicks: 2 });
      const byMedia = (await admin('GET', `/admin/tracking/media/${carolMedia.id}`)).json.data.attributes;
      assert.deepEqual(pick(byMedia), { ...expected, clicks: 2 });
      const byPlace = (await admin('GET', `/admin/tracking/establishment/${establishmentId}`)).json.data.attributes;
      assert.ok(byPlace.clicks > 3);

      const from = encodeURIComponent(new Date(start.getTime() + 1).toISOString());
      const empty = (await admin('GET', `/admin/tracking/offer/${other}?from=${from}`)).json.data.attributes;
      assert.deepEqual(pick(empty), { clicks: 0, creditedClicks: 0, botClicks: 0, conversions: 0, totals: [] });
      const to = encodeURIComponent(start.toISOString());
      const before = (await admin('GET', `/admin/tracking/offer/${other}?to=${to}`)).json.data.attributes;
      assert.equal(before.clicks, 0);
      assert.equal(before.to, start.toISOString().replace('Z', '+00:00'));

      assert.equal((await admin('GET', `/admin/tracking/brand/${other}`)).statusCode, 404);
      assert.equal((await admin('GET', '/admin/tracking/offer/12')).statusCode, 422);
      assert.equal((await admin('GET', `/admin/tracking/offer/${other.replaceAll('-', '')}`)).statusCode, 422);
      assert.equal((await admin('GET', `/admin/tracking/offer/${other}?from=yesterday`)).statusCode, 400);
      assert.equal((await admin('GET', `/admin/tracking/offer/${other}?from=${from}&to=${to}`)).statusCode, 400);
      assert.equal((await admin('GET', `/admin/tracking/offer/${other}?colour=red`)).statusCode, 400);
      assert.equal((await admin('GET', '/admin/tracking/clicks/AAAAAAAAAAAAAAAAAAAAAA')).statusCode, 404);
      for (const url of [`/admin/tracking/offer/${other}`, `/admin/tracking/clicks/${human.json.data.id}`]) {
        assert.equal((await t.request({ method: 'GET', url, token: carol.token })).statusCode, 401);
        assert.equal((await t.request({ method: 'GET', url })).statusCode, 401);
      }

      const earnings = await t.request({ method: 'GET', url: '/api/users/me/earnings', token: carol.token });
      assert.equal(earnings.statusCode, 200);
      assert.equal(earnings.json.data.length, 1, 'the bot click earns nothing');
      assert.equal(earnings.json.data[0].type, 'earnings');
      assert.equal(earnings.json.data[0].attributes.commission, 1001);
      assert.equal(earnings.json.data[0].attributes.offerId, other);
      assert.equal(earnings.json.data[0].attributes.amount, undefined, 'the buyer’s purchase is not shown');
      assert.deepEqual(earnings.json.meta.totals, [{ currency: 'EUR', conversions: 1, commission: 1001 }]);
    });

    it('counts clicks and conversions in the admin statistics', async () => {
      const stats = await admin('GET', '/admin/stats');
      assert.equal(stats.statusCode, 200);
      assert.ok(stats.json.data.attributes.counts.trackingClicks.total > 10);
      assert.ok(stats.json.data.attributes.counts.trackingConversions.total > 1000);
    });

    it('forgets the viewer of an erased account, keeping the click', async () => {
      const dora = await createUser(t);
      const res = await click(offerId, { mediaId }, { token: dora.token });
      assert.equal(res.statusCode, 201);
      const erased = await admin('POST', `/admin/users/${dora.hex}/anonymize`);
      assert.equal(erased.statusCode, 200);
      const seen = (await admin('GET', `/admin/tracking/clicks/${res.json.data.id}`)).json.data.attributes;
      assert.equal(seen.viewerId, null);
      assert.equal(seen.creatorId, ada.id);
    });

    it('lists my earnings newest first by keyset, and only mine', async () => {
      // The clock moved 30 days on: sign in again.
      const login = async (user: TestUser) =>
        (
          await t.request({
            method: 'POST',
            url: '/api/auth/login',
            body: { email: user.email, password: strongPassword },
          })
        ).json.data.attributes.accessToken as string;
      ada.token = await login(ada);
      bob.token = await login(bob);
      const page = await t.request({ method: 'GET', url: '/api/users/me/earnings?limit=2', token: ada.token });
      assert.equal(page.statusCode, 200);
      assert.equal(page.json.data.length, 2);
      assert.equal(page.json.meta.limit, 2);
      const next = await t.request({ method: 'GET', url: page.json.links.next, token: ada.token });
      assert.equal(next.statusCode, 200);
      assert.ok(
        !next.json.data.some((row: { id: string }) => page.json.data.some((p: { id: string }) => p.id === row.id)),
      );
      const total = page.json.meta.totals.find((row: { currency: string }) => row.currency === 'EUR');
      assert.ok(total.conversions > 1000);
      const bobs = await t.request({ method: 'GET', url: '/api/users/me/earnings', token: bob.token });
      assert.deepEqual(bobs.json.data, []);
      assert.deepEqual(bobs.json.meta.totals, []);
      assert.equal((await t.request({ method: 'GET', url: '/api/users/me/earnings' })).statusCode, 401);
      assert.equal(
        (await t.request({ method: 'GET', url: '/api/users/me/earnings?cursor=zzz', token: bob.token })).statusCode,
        400,
      );
    });
  });
});
