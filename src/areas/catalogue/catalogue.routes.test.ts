import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { cityId } from '../geography/reference-data/ids.ts';
import type { CatalogueServices } from './public.ts';

const paris = cityId(2988507);
const lyon = cityId(2996944);

describe('catalogue routes', () => {
  let t: TestApp;
  let catalogue: CatalogueServices;
  const ids: Record<string, string> = {};
  const id = (name: string) => ids[name] ?? assert.fail(`no ${name}`);
  const get = (url: string, locale?: string) =>
    t.request({ method: 'GET', url, headers: locale ? { 'accept-language': locale } : {} });
  const names = (res: { json: any }) => res.json.data.map((item: any) => item.attributes.name);
  const titles = (res: { json: any }) => res.json.data.map((item: any) => item.attributes.title);
  const follow = (link: string, locale?: string) => {
    const url = new URL(link);
    return get(url.pathname + url.search, locale);
  };
  const refused = (res: { statusCode: number; json: any }, status: number, code: string, parameter?: string) => {
    assert.equal(res.statusCode, status, JSON.stringify(res.json));
    assert.equal(res.json.errors[0].code, code);
    if (parameter) assert.equal(res.json.errors[0].source.parameter, parameter);
  };
  const tick = () => t.clock.advance(1000);

  before(async () => {
    t = await createTestApp();
    catalogue = t.services.areas.catalogue;
    const { brands, establishments, offers } = catalogue;
    ids.greenStays = (
      await brands.save({
        externalId: 'brand-green-stays',
        name: 'Green Stays',
        website: 'https://greenstays.example',
        description: { 'en-US': 'Low-impact stays', 'fr-FR': 'Séjours sobres' },
      })
    ).row.id;
    tick();
    ids.alpine = (await brands.save({ externalId: 'brand-alpine', name: 'Alpine Huts', description: {} })).row.id;
    tick();
    // Paris centre 48.8566, 2.3522; Lyon 45.764, 4.8357.
    ids.canal = (
      await establishments.save({
        externalId: 'est-canal',
        name: 'Hôtel du Canal',
        kind: 'hotel',
        labels: ['green-key', 'local-sourcing'],
        address: '12 quai de Valmy',
        cityId: paris,
        countryCode: 'FR',
        latitude: 48.8718,
        longitude: 2.3635,
        brandId: ids.greenStays,
        website: 'https://canal.example',
        description: { 'en-US': 'A quiet hotel by the canal', 'fr-FR': 'Un hôtel calme au bord du canal' },
      })
    ).row.id;
    tick();
    ids.bistro = (
      await establishments.save({
        externalId: 'est-bistro',
        name: 'Bistrot Potager',
        kind: 'restaurant',
        labels: ['organic'],
        cityId: paris,
        countryCode: 'FR',
        latitude: 48.8566,
        longitude: 2.3522,
        description: { 'en-US': 'Vegetables from our own garden' },
      })
    ).row.id;
    tick();
    ids.lyonCamp = (
      await establishments.save({
        externalId: 'est-lyon-camp',
        name: 'Camping des Berges',
        kind: 'campsite',
        labels: ['eu-ecolabel'],
        cityId: lyon,
        countryCode: 'FR',
        latitude: 45.764,
        longitude: 4.8357,
        brandId: ids.alpine,
      })
    ).row.id;
    tick();
    ids.closed = (
      await establishments.save({
        externalId: 'est-closed',
        name: 'Closed Canal Lodge',
        kind: 'hotel',
        cityId: paris,
        countryCode: 'FR',
        latitude: 48.86,
        longitude: 2.35,
        active: false,
      })
    ).row.id;
    tick();
    const offer = (externalId: string, extra: Record<string, unknown>) =>
      offers.save({
        externalId,
        title: { 'en-US': externalId },
        currency: 'EUR',
        commissionRateBps: 500,
        partnerUrl: `https://partner.example/book?o=${externalId}`,
        ...extra,
      });
    const now = t.clock.now().getTime();
    ids.weekend = (
      await offer('weekend', {
        title: { 'en-US': 'Canal weekend', 'fr-FR': 'Week-end au canal' },
        description: { 'en-US': 'Two nights with breakfast' },
        establishmentId: ids.canal,
        priceMin: 18000,
        priceMax: 24000,
        validUntil: new Date(now + 86_400_000),
      })
    ).row.id;
    tick();
    ids.dinner = (
      await offer('dinner', { title: { 'en-US': 'Garden dinner' }, establishmentId: ids.bistro, priceMin: 3500 })
    ).row.id;
    tick();
    ids.brandPass = (await offer('brand-pass', { title: { 'en-US': 'Alpine hut pass' }, brandId: ids.alpine })).row.id;
    tick();
    ids.expired = (await offer('expired', { establishmentId: ids.canal, validUntil: new Date(now - 1000) })).row.id;
    ids.future = (
      await offer('future', { establishmentId: ids.canal, validFrom: new Date(now + 86_400_000 * 30) })
    ).row.id;
    ids.inactive = (await offer('inactive', { establishmentId: ids.canal, active: false })).row.id;
    ids.ofClosed = (await offer('of-closed', { establishmentId: ids.closed })).row.id;
    tick();
  });
  after(() => t.close());

  describe('GET /api/brands', () => {
    it('lists brands by name in keyset pages, descriptions in the negotiated locale or en-US', async () => {
      const first = await get('/api/brands?limit=1', 'fr-FR');
      assert.equal(first.statusCode, 200);
      assert.deepEqual(names(first), ['Alpine Huts']);
      assert.equal(first.json.data[0].attributes.description, null);
      assert.equal(first.json.meta.limit, 1);
      const second = await follow(first.json.links.next);
      assert.deepEqual(names(second), ['Green Stays']);
      assert.equal(second.json.links.next, null);
      const french = await get('/api/brands', 'fr-FR');
      assert.equal(french.json.data[1].attributes.description, 'Séjours sobres');
      assert.equal(french.json.data[1].attributes.descriptionLocale, 'fr-FR');
      assert.equal(french.json.data[1].attributes.website, 'https://greenstays.example');
      refused(await get('/api/brands?cursor=nope'), 400, 'invalidCursor', 'cursor');
      refused(await get('/api/brands?limit=101'), 400, 'invalidQueryParameter');
    });
  });

  describe('GET /api/establishments', () => {
    it('lists active establishments newest first in pages, with city, brand and localized description', async () => {
      const first = await get('/api/establishments?limit=2', 'fr-FR');
      assert.equal(first.statusCode, 200);
      assert.deepEqual(names(first), ['Camping des Berges', 'Bistrot Potager']);
      const bistro = first.json.data[1];
      assert.equal(bistro.id, ids.bistro);
      assert.equal(bistro.attributes.description, 'Vegetables from our own garden');
      assert.equal(bistro.attributes.descriptionLocale, 'en-US');
      assert.equal(bistro.attributes.cityName, 'Paris');
      assert.equal(bistro.relationships.city.data.id, paris);
      assert.equal(bistro.attributes.distanceKm, null);
      const second = await follow(first.json.links.next, 'fr-FR');
      assert.deepEqual(names(second), ['Hôtel du Canal']);
      const canal = second.json.data[0];
      assert.equal(canal.attributes.description, 'Un hôtel calme au bord du canal');
      assert.deepEqual(canal.attributes.labels, ['green-key', 'local-sourcing']);
      assert.equal(canal.relationships.brand.data.id, ids.greenStays);
      assert.equal(second.json.links.next, null);
      const back = await follow(second.json.links.prev);
      assert.deepEqual(names(back), ['Camping des Berges', 'Bistrot Potager']);
    });

    it('filters by city, country, kind, label and brand', async () => {
      assert.deepEqual(names(await get(`/api/establishments?city=${lyon}`)), ['Camping des Berges']);
      assert.deepEqual(names(await get('/api/establishments?country=fr&kind=hotel')), ['Hôtel du Canal']);
      assert.deepEqual(names(await get('/api/establishments?label=organic')), ['Bistrot Potager']);
      assert.deepEqual(names(await get(`/api/establishments?brand=${ids.greenStays}`)), ['Hôtel du Canal']);
      assert.deepEqual(names(await get('/api/establishments?country=DE')), []);
    });

    it('lists nearest first with lat/lng within radiusKm, with each distance', async () => {
      const near = await get('/api/establishments?lat=48.8566&lng=2.3522&radiusKm=10&limit=1');
      assert.equal(near.statusCode, 200);
      assert.deepEqual(names(near), ['Bistrot Potager']);
      assert.equal(near.json.data[0].attributes.distanceKm, 0);
      const next = await follow(near.json.links.next);
      assert.deepEqual(names(next), ['Hôtel du Canal']);
      assert.ok(next.json.data[0].attributes.distanceKm > 1.5 && next.json.data[0].attributes.distanceKm < 2.5);
      assert.equal(next.json.links.next, null);
      const wide = await get('/api/establishments?lat=48.8566&lng=2.3522&radiusKm=200');
      assert.deepEqual(names(wide), ['Bistrot Potager', 'Hôtel du Canal']);
      const lyonWide = await get('/api/establishments?lat=48.8566&lng=2.3522&radiusKm=200&kind=campsite');
      assert.deepEqual(names(lyonWide), []);
      // A newest-first cursor is not a nearest-first one.
      const newest = await get('/api/establishments?limit=1');
      const url = new URL(newest.json.links.next);
      refused(await get(`/api/establishments?lat=48.8&lng=2.3&${url.search.slice(1)}`), 400, 'invalidCursor', 'cursor');
    });

    it('refuses bad filters with 400', async () => {
      refused(await get('/api/establishments?lat=91&lng=2'), 400, 'invalidQueryParameter');
      refused(await get('/api/establishments?lat=45&lng=-181'), 400, 'invalidQueryParameter');
      refused(await get('/api/establishments?lat=45'), 400, 'invalidQueryParameter', 'lng');
      refused(await get('/api/establishments?radiusKm=5'), 400, 'invalidQueryParameter', 'radiusKm');
      refused(await get('/api/establishments?lat=45&lng=2&radiusKm=201'), 400, 'invalidQueryParameter');
      refused(await get('/api/establishments?kind=castle'), 400, 'invalidQueryParameter');
      refused(await get('/api/establishments?label=greenish'), 400, 'invalidQueryParameter');
      refused(await get('/api/establishments?city=paris'), 400, 'invalidQueryParameter');
      refused(await get('/api/establishments?country=FRA'), 400, 'invalidQueryParameter');
      refused(await get('/api/establishments?cursor=abc'), 400, 'invalidCursor', 'cursor');
    });
  });

  describe('GET /api/establishments/search', () => {
    it('finds by name or description, ignoring case, accents and small typos, best first', async () => {
      const byName = await get('/api/establishments/search?q=hotel%20canal');
      assert.equal(byName.statusCode, 200);
      assert.deepEqual(names(byName), ['Hôtel du Canal']);
      assert.deepEqual(names(await get('/api/establishments/search?q=potagr')), ['Bistrot Potager']);
      assert.deepEqual(names(await get('/api/establishments/search?q=garden')), ['Bistrot Potager']);
      assert.deepEqual(names(await get('/api/establishments/search?q=BERGES')), ['Camping des Berges']);
      const limited = await get('/api/establishments/search?q=canal&limit=5');
      assert.deepEqual(names(limited), ['Hôtel du Canal']); // the inactive Closed Canal Lodge is not found
      assert.equal(limited.json.meta.limit, 5);
      refused(await get('/api/establishments/search?q=%20%20'), 400, 'invalidQueryParameter', 'q');
      refused(await get('/api/establishments/search'), 400, 'invalidQueryParameter');
      refused(await get('/api/establishments/search?q=a&limit=51'), 400, 'invalidQueryParameter');
    });
  });

  describe('GET /api/establishments/{id}', () => {
    it('shows an establishment with its brand and its live offers only', async () => {
      const res = await get(`/api/establishments/${ids.canal}`, 'fr-FR');
      assert.equal(res.statusCode, 200);
      assert.equal(res.json.data.attributes.name, 'Hôtel du Canal');
      assert.deepEqual(res.json.data.relationships.offers.data, [{ type: 'offers', id: ids.weekend }]);
      const included = res.json.included.map((item: any) => `${item.type}:${item.id}`);
      assert.deepEqual(included, [`brands:${ids.greenStays}`, `offers:${ids.weekend}`]);
      const offer = res.json.included[1].attributes;
      assert.equal(offer.title, 'Week-end au canal');
      assert.equal(offer.titleLocale, 'fr-FR');
      assert.equal(offer.priceMin, 18000);
      assert.equal(offer.currency, 'EUR');
    });

    it('answers 404 for an unknown or inactive establishment and 422 for a malformed id', async () => {
      refused(await get('/api/establishments/00000000-0000-4000-8000-000000000000'), 404, 'notFound');
      refused(await get(`/api/establishments/${ids.closed}`), 404, 'notFound');
      refused(await get('/api/establishments/not-a-uuid'), 422, 'invalidId');
    });
  });

  describe('GET /api/offers', () => {
    it('lists live offers only, newest first in pages', async () => {
      const first = await get('/api/offers?limit=2');
      assert.equal(first.statusCode, 200);
      assert.deepEqual(titles(first), ['Alpine hut pass', 'Garden dinner']);
      const second = await follow(first.json.links.next);
      assert.deepEqual(titles(second), ['Canal weekend']);
      assert.equal(second.json.links.next, null);
      assert.equal(second.json.data[0].attributes.live, true);
      assert.equal(second.json.data[0].attributes.commissionRateBps, 500);
      assert.equal(second.json.data[0].relationships.establishment.data.id, ids.canal);
      assert.equal(second.json.data[0].attributes.partnerUrl, undefined);
    });

    it('filters by establishment, brand, city and country', async () => {
      assert.deepEqual(titles(await get(`/api/offers?establishment=${ids.bistro}`)), ['Garden dinner']);
      assert.deepEqual(titles(await get(`/api/offers?brand=${ids.alpine}`)), ['Alpine hut pass']);
      assert.deepEqual(titles(await get(`/api/offers?city=${paris}`)), ['Garden dinner', 'Canal weekend']);
      assert.deepEqual(titles(await get('/api/offers?country=fr')), ['Garden dinner', 'Canal weekend']);
      refused(await get('/api/offers?establishment=12'), 400, 'invalidQueryParameter');
      refused(await get('/api/offers?country=F'), 400, 'invalidQueryParameter');
    });

    it('drops an offer from the list once its validity window ends', async () => {
      t.clock.advance(2 * 86_400_000);
      try {
        assert.deepEqual(titles(await get('/api/offers')), ['Alpine hut pass', 'Garden dinner']);
        refused(await get(`/api/offers/${ids.weekend}`), 410, 'offerGone');
      } finally {
        t.clock.advance(-2 * 86_400_000);
      }
    });
  });

  describe('GET /api/offers/search', () => {
    it('finds live offers by title or description, typo-tolerant', async () => {
      const res = await get('/api/offers/search?q=breakfast', 'fr-FR');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(titles(res), ['Week-end au canal']);
      assert.deepEqual(titles(await get('/api/offers/search?q=dinnr')), ['Garden dinner']);
      assert.deepEqual(titles(await get('/api/offers/search?q=expired')), []);
      refused(await get('/api/offers/search?q='), 400, 'invalidQueryParameter');
    });
  });

  describe('GET /api/offers/{id}', () => {
    it('shows a live offer', async () => {
      const res = await get(`/api/offers/${ids.dinner}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json.data.attributes.title, 'Garden dinner');
      assert.equal(res.json.data.attributes.priceMax, null);
      assert.equal(res.json.data.attributes.validUntil, null);
    });

    it('answers 410 offerGone naming the establishment for an expired, future, inactive or closed offer', async () => {
      for (const id of [ids.expired, ids.future, ids.inactive]) {
        const res = await get(`/api/offers/${id}`);
        refused(res, 410, 'offerGone');
        assert.equal(res.json.errors[0].meta.establishmentId, ids.canal);
      }
      refused(await get(`/api/offers/${ids.ofClosed}`), 410, 'offerGone');
    });

    it('answers 404 for an unknown offer and 422 for a malformed id', async () => {
      refused(await get('/api/offers/00000000-0000-4000-8000-000000000000'), 404, 'notFound');
      refused(await get('/api/offers/javascript:alert(1)'), 422, 'invalidId');
      refused(await get(`/api/offers/${id('dinner').replaceAll('-', '')}`), 422, 'invalidId');
    });
  });

  describe('positions near zero', () => {
    it('keeps an imported position to the centimetre, so distances near it never underflow', async () => {
      // A product of two non-zero floats that rounds to zero is an error in PostgreSQL (the haversine
      // formula squares the sine of a latitude difference): 1e-170 squared would be one.
      const { row } = await catalogue.establishments.save({
        externalId: 'est-null-island',
        name: 'Null Island Buoy',
        kind: 'activity',
        countryCode: 'GH',
        latitude: 1e-170,
        longitude: -5e-324,
      });
      assert.equal(row.latitude, 0);
      assert.equal(row.longitude, 0);
      const near = await get('/api/establishments?lat=0.00001&lng=0&radiusKm=1');
      assert.equal(near.statusCode, 200, JSON.stringify(near.json));
      assert.deepEqual(names(near), ['Null Island Buoy']);
      assert.equal(near.json.data[0].attributes.distanceKm, 0.001);
    });
  });
});
