import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { currencyCodes } from '../../platform/money/currencies.ts';
import type { CatalogueServices } from './public.ts';
import { establishmentKinds, sustainabilityLabels } from './vocabulary.ts';

describe('catalogue services', () => {
  let t: TestApp;
  let catalogue: CatalogueServices;
  let establishmentId: string;

  const rejects422 = async (work: Promise<unknown>, pointer: string) => {
    await assert.rejects(work, (error: any) => {
      assert.equal(error.code, 'validationFailed');
      assert.equal(error.options.source.pointer, pointer);
      return true;
    });
  };
  const offer = (extra: Record<string, unknown> = {}) => ({
    externalId: 'offer-1',
    title: { 'en-US': 'Two nights' },
    establishmentId,
    currency: 'EUR',
    commissionRateBps: 750,
    partnerUrl: 'https://partner.example/book?id=1',
    ...extra,
  });

  before(async () => {
    t = await createTestApp();
    catalogue = t.services.areas.catalogue;
    establishmentId = (
      await catalogue.establishments.save({ externalId: 'e-1', name: 'Refuge', kind: 'ecolodge', countryCode: 'CH' })
    ).row.id;
  });
  after(() => t.close());

  it('upserts by external id, telling created from updated, keeping the id', async () => {
    const first = await catalogue.offers.save(offer());
    assert.equal(first.created, true);
    t.clock.advance(1000);
    const second = await catalogue.offers.save(offer({ title: { 'en-US': 'Three nights' } }));
    assert.equal(second.created, false);
    assert.equal(second.row.id, first.row.id);
    assert.deepEqual(second.row.title, { 'en-US': 'Three nights' });
    assert.ok(second.row.updatedAt > first.row.updatedAt);
    assert.equal(second.row.createdAt.getTime(), first.row.createdAt.getTime());
  });

  it('findForTracking tells whether an offer is live now, by the injected clock', async () => {
    const now = t.clock.now().getTime();
    const { row } = await catalogue.offers.save(
      offer({ externalId: 'window', validFrom: new Date(now + 60_000), validUntil: new Date(now + 120_000) }),
    );
    const before = await catalogue.offers.findForTracking(row.id);
    assert.deepEqual(before, {
      id: row.id,
      partnerUrl: 'https://partner.example/book?id=1',
      commissionRateBps: 750,
      currency: 'EUR',
      establishmentId,
      brandId: null,
      live: false,
    });
    t.clock.advance(60_000);
    assert.equal((await catalogue.offers.findForTracking(row.id))?.live, true);
    t.clock.advance(60_000);
    assert.equal((await catalogue.offers.findForTracking(row.id))?.live, false);
    assert.equal(await catalogue.offers.findForTracking('00000000-0000-4000-8000-000000000000'), null);
  });

  it('refuses partner URLs that are not http(s), unknown currencies and out-of-range rates', async () => {
    await rejects422(catalogue.offers.save(offer({ partnerUrl: 'javascript:alert(1)' })), '/partnerUrl');
    await rejects422(catalogue.offers.save(offer({ partnerUrl: 'JavaScript://x.example/%0Aalert(1)' })), '/partnerUrl');
    await rejects422(catalogue.offers.save(offer({ partnerUrl: '/relative' })), '/partnerUrl');
    await rejects422(catalogue.offers.save(offer({ partnerUrl: 'https://user:pw@x.example/' })), '/partnerUrl');
    await rejects422(catalogue.offers.save(offer({ currency: 'XYZ' })), '/currency');
    await rejects422(catalogue.offers.save(offer({ currency: 'eur' })), '/currency');
    await rejects422(catalogue.offers.save(offer({ commissionRateBps: 10_001 })), '/commissionRateBps');
    await rejects422(catalogue.offers.save(offer({ commissionRateBps: 2.5 })), '/commissionRateBps');
    await rejects422(catalogue.offers.save(offer({ priceMin: -1 })), '/priceMin');
    await rejects422(catalogue.offers.save(offer({ priceMin: 10, priceMax: 5 })), '/priceMax');
    await rejects422(catalogue.offers.save(offer({ title: { 'fr-FR': 'Sans anglais' } })), '/title');
    await rejects422(catalogue.offers.save(offer({ establishmentId: null })), '/establishmentId');
    const unchanged = await catalogue.offers.findForTracking((await catalogue.offers.save(offer())).row.id);
    assert.equal(unchanged?.commissionRateBps, 750);
  });

  it('refuses unknown kinds and labels and half positions for establishments', async () => {
    const base = { externalId: 'e-2', name: 'Hut', kind: 'hotel', countryCode: 'CH' };
    await rejects422(catalogue.establishments.save({ ...base, kind: 'castle' }), '/kind');
    await rejects422(catalogue.establishments.save({ ...base, labels: ['shiny'] }), '/labels');
    await rejects422(catalogue.establishments.save({ ...base, latitude: 46 }), '/latitude');
    await rejects422(catalogue.establishments.save({ ...base, latitude: 95, longitude: 7 }), '/latitude');
    await rejects422(catalogue.establishments.save({ ...base, website: 'ftp://x.example' }), '/website');
    await rejects422(catalogue.establishments.save({ ...base, countryCode: 'ch' }), '/countryCode');
    await rejects422(catalogue.brands.save({ externalId: 'b', name: ' ' }), '/name');
  });

  it('counts establishments and offers in the admin statistics', async () => {
    const res = await t.request({ method: 'GET', url: '/admin/stats', token: adminToken });
    assert.equal(res.statusCode, 200);
    const { counts } = res.json.data.attributes;
    assert.equal(counts.establishments.total, 1);
    assert.ok(counts.offers.total >= 2);
  });

  it('refuses, as 422, whatever a check of the tables would refuse (migration 1000)', async () => {
    const place = { externalId: 'e-3', name: 'Hut', kind: 'hotel', countryCode: 'CH' };
    const brand = { externalId: 'b-3', name: 'Brand' };
    for (const url of [
      'https:alert(1)',
      'http:/one-slash.example/',
      'https:\\\\back.example/',
      ' https://x.example/',
    ]) {
      await rejects422(catalogue.establishments.save({ ...place, website: url }), '/website');
      await rejects422(catalogue.brands.save({ ...brand, website: url }), '/website');
      await rejects422(catalogue.offers.save(offer({ partnerUrl: url })), '/partnerUrl');
    }
    for (const url of ['https://x.example/a\u00a0b', 'https://x.example/a\u2028b', 'https://x.example/a\u0085b']) {
      await rejects422(catalogue.offers.save(offer({ partnerUrl: url })), '/partnerUrl');
    }
    await rejects422(catalogue.establishments.save({ ...place, name: 'x'.repeat(201) }), '/name');
    await rejects422(catalogue.brands.save({ ...brand, name: 'x'.repeat(201) }), '/name');
    await rejects422(catalogue.brands.save({ ...brand, externalId: '' }), '/externalId');
    await rejects422(catalogue.establishments.save({ ...place, externalId: 'x'.repeat(201) }), '/externalId');
    await rejects422(catalogue.offers.save(offer({ externalId: 'has space' })), '/externalId');
    await rejects422(catalogue.brands.save({ ...brand, description: [] as never }), '/description');
    await rejects422(catalogue.offers.save(offer({ validFrom: new Date(Number.NaN) })), '/validFrom');
    await rejects422(catalogue.offers.save(offer({ validUntil: new Date('+010000-01-01T00:00:00Z') })), '/validUntil');
    await catalogue.brands.save({ ...brand, name: 'x'.repeat(200), website: 'HTTPS://upper.example/' });
  });

  it('stores every kind and label and currency it accepts (the tables check the same lists)', async () => {
    for (const kind of establishmentKinds) {
      await catalogue.establishments.save({ externalId: `kind-${kind}`, name: kind, kind, countryCode: 'CH' });
    }
    await catalogue.establishments.save({
      externalId: 'every-label',
      name: 'Labelled',
      kind: 'hotel',
      labels: [...sustainabilityLabels],
      countryCode: 'CH',
    });
    for (const currency of currencyCodes) {
      await catalogue.offers.save(offer({ externalId: `currency-${currency}`, currency }));
    }
  });
});
