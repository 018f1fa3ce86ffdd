import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import { createOfferFactory, type OfferFactory } from '../../../test/helpers/offer-factory.ts';

/**
 * Credited clicks count once per visitor, offer and media within 30 minutes, whatever the User-Agent:
 * a visitor is the signed-in user, else the client IP as Fastify resolves it (TRUST_PROXY), an IPv6
 * address by its /64 (docs/api.md, "Duplicates").
 */
describe('click visitors', () => {
  // Behind the proxy at 127.0.0.1: the last X-Forwarded-For entry is the client, what precedes it the client's own say.
  let t: TestApp;
  // The same database, not behind a proxy: X-Forwarded-For is not believed at all.
  let direct: TestApp;
  let offers: OfferFactory;
  let mediaId: string;

  const browsers = Array.from(
    { length: 20 },
    (_, index) =>
      `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/${100 + index}.0.0.0 Safari/537.36`,
  );
  const go = async (app: TestApp, offerId: string, headers: Record<string, string>) => {
    const res = await app.request({ method: 'GET', url: `/go/offer/${offerId}/media/${mediaId}`, headers });
    assert.equal(res.statusCode, 302);
    return new URL(String(res.headers.location)).searchParams.get('tm_ref') ?? '';
  };
  const offerReport = async (offerId: string) =>
    (await t.request({ method: 'GET', url: `/admin/tracking/offer/${offerId}`, token: adminToken })).json.data
      .attributes;

  before(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    direct = await createTestApp({ database: t.deps.database, clock: t.clock });
    const creator = await createUser(t);
    offers = await createOfferFactory(t, 'Harbour Tours', 'tour');
    mediaId = (await createMediaRow(t, creator.id)).id;
  });
  after(async () => {
    try {
      await direct.close();
    } finally {
      await t.close();
    }
  });

  it('counts 20 visits from one IP with 20 User-Agents as one credited click', async () => {
    const offerId = await offers.newOffer();
    const refs = new Set<string>();
    for (const agent of browsers)
      refs.add(await go(t, offerId, { 'user-agent': agent, 'x-forwarded-for': '203.0.113.7' }));
    assert.equal(refs.size, 1);
    const report = await offerReport(offerId);
    assert.deepEqual([report.clicks, report.creditedClicks], [1, 1]);
    // Another address is another visitor; after 30 minutes the first one counts again.
    await go(t, offerId, { 'user-agent': browsers[0]!, 'x-forwarded-for': '203.0.113.8' });
    t.clock.advance(30 * 60 * 1000 + 1);
    refs.add(await go(t, offerId, { 'user-agent': browsers[1]!, 'x-forwarded-for': '203.0.113.7' }));
    assert.equal(refs.size, 2);
    assert.equal((await offerReport(offerId)).creditedClicks, 3);
  });

  it('takes the client IP as the proxy gives it: addresses the client prepends change nothing', async () => {
    const offerId = await offers.newOffer();
    const refs = new Set<string>();
    for (const [index, agent] of browsers.entries())
      refs.add(await go(t, offerId, { 'user-agent': agent, 'x-forwarded-for': `10.9.8.${index}, 203.0.113.20` }));
    assert.equal(refs.size, 1);
    // Not behind a proxy, the header is not believed at all: every one of these is 127.0.0.1.
    for (const [index, agent] of browsers.entries())
      refs.add(await go(direct, offerId, { 'user-agent': agent, 'x-forwarded-for': `203.0.113.${100 + index}` }));
    assert.equal(refs.size, 2);
    assert.equal((await offerReport(offerId)).creditedClicks, 2);
  });

  it('counts an IPv6 /64 as one visitor, and an IPv4-mapped address as its IPv4 address', async () => {
    const offerId = await offers.newOffer();
    const visit = (ip: string, index: number) =>
      go(t, offerId, { 'user-agent': browsers[index]!, 'x-forwarded-for': ip });
    const one = await visit('2001:db8:aa:1::1', 0);
    assert.equal(await visit('2001:db8:aa:1:f00d:1:2:3', 1), one);
    assert.equal(await visit('2001:0DB8:00AA:0001:0:0:0:9', 2), one, 'written in full and in capitals');
    const other = await visit('2001:db8:aa:2::1', 3);
    assert.notEqual(other, one, 'the next /64 is another visitor');
    const v4 = await visit('192.0.2.44', 4);
    assert.equal(await visit('::ffff:192.0.2.44', 5), v4);
    assert.deepEqual(new Set([one, other, v4]).size, 3);
    assert.equal((await offerReport(offerId)).creditedClicks, 3);
  });

  it('keeps signed-in readers on one connection apart, and bots apart from people', async () => {
    const offerId = await offers.newOffer();
    const ip = '203.0.113.30';
    const readers = await Promise.all([createUser(t), createUser(t)]);
    const clicks = await Promise.all(
      readers.map((reader, index) =>
        t.request({
          method: 'POST',
          url: `/api/offers/${offerId}/clicks`,
          token: reader.token,
          body: { mediaId },
          headers: { 'user-agent': browsers[index]!, 'x-forwarded-for': ip },
        }),
      ),
    );
    assert.deepEqual(
      clicks.map((res) => res.statusCode),
      [201, 201],
    );
    await go(t, offerId, { 'user-agent': browsers[2]!, 'x-forwarded-for': ip });
    await go(t, offerId, { 'user-agent': 'Slackbot-LinkExpanding 1.0', 'x-forwarded-for': ip });
    const report = await offerReport(offerId);
    assert.deepEqual([report.clicks, report.creditedClicks, report.botClicks], [4, 3, 1]);
  });

  it('credits one click when one visitor’s clicks race', async () => {
    const offerId = await offers.newOffer();
    const refs = await Promise.all(
      browsers.map((agent) => go(t, offerId, { 'user-agent': agent, 'x-forwarded-for': '203.0.113.40' })),
    );
    assert.equal(new Set(refs).size, 1);
    const report = await offerReport(offerId);
    assert.deepEqual([report.clicks, report.creditedClicks], [1, 1]);
  });
});
