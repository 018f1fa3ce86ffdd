import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { cityId } from './reference-data/ids.ts';
import { cities } from './tables.ts';

const paris = cityId(2988507);
const reykjavik = cityId(3413829);
const saoPaulo = cityId(3448439);

describe('geography reference data', () => {
  let t: TestApp;
  const get = (url: string, locale?: string) =>
    t.request({ method: 'GET', url, headers: locale ? { 'accept-language': locale } : {} });
  const codes = (res: { json: any }) => res.json.data.map((item: any) => item.attributes.code);
  const badParameter = (res: { statusCode: number; json: any }, status: number, code: string, parameter: string) => {
    assert.equal(res.statusCode, status, JSON.stringify(res.json));
    assert.equal(res.json.errors[0].code, code);
    assert.equal(res.json.errors[0].source.parameter, parameter);
  };

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  describe('regions and subregions', () => {
    it('lists the five M49 regions by code, in pages, named in the negotiated locale', async () => {
      const first = await get('/api/regions?limit=3');
      assert.equal(first.statusCode, 200);
      assert.deepEqual(codes(first), ['002', '009', '019']);
      assert.equal(first.json.data[0].type, 'regions');
      assert.match(first.json.data[0].id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(first.json.meta.limit, 3);
      const next = await get(new URL(first.json.links.next).pathname + new URL(first.json.links.next).search);
      assert.deepEqual(codes(next), ['142', '150']);
      assert.equal(next.json.links.next, null);
      const french = await get('/api/regions', 'fr-FR');
      assert.deepEqual(
        french.json.data.map((item: any) => item.attributes.name),
        ['Afrique', 'Océanie', 'Amériques', 'Asie', 'Europe'],
      );
    });

    it('finds a region or subregion by M49 code, with or without leading zeros', async () => {
      const europe = await get('/api/regions/150');
      assert.equal(europe.statusCode, 200);
      assert.equal(europe.json.data.attributes.name, 'Europe');
      assert.equal((await get('/api/regions/2')).json.data.attributes.code, '002');
      assert.equal((await get('/api/regions/002')).json.data.attributes.name, 'Africa');
      const western = await get('/api/subregions/155', 'fr-FR');
      assert.deepEqual(western.json.data.attributes, {
        code: '155',
        name: 'Europe de l’Ouest',
        regionCode: '150',
        parentCode: null,
      });
      assert.equal((await get('/api/subregions/014')).json.data.attributes.parentCode, '202');
      assert.equal((await get('/api/regions/999')).statusCode, 404);
      assert.equal((await get('/api/subregions/150')).statusCode, 404, 'a region is not a subregion');
      badParameter(await get('/api/regions/abc'), 422, 'validationFailed', 'code');
      badParameter(await get('/api/subregions/12345'), 422, 'validationFailed', 'code');
    });

    it('filters subregions by region and intermediate regions by their subregion', async () => {
      assert.deepEqual(codes(await get('/api/subregions?region=150')), ['039', '151', '154', '155']);
      assert.deepEqual(codes(await get('/api/subregions?subregion=202')), ['011', '014', '017', '018']);
      assert.deepEqual(codes(await get('/api/subregions?region=999')), []);
      badParameter(await get('/api/subregions?region=europe'), 400, 'invalidQueryParameter', 'region');
    });
  });

  describe('countries', () => {
    it('lists countries by alpha-2 code in keyset pages, with their M49 placement', async () => {
      const first = await get('/api/countries?limit=3');
      assert.deepEqual(codes(first), ['AD', 'AE', 'AF']);
      const next = await get(
        `/api/countries?limit=3&cursor=${new URL(first.json.links.next).searchParams.get('cursor')}`,
      );
      assert.deepEqual(codes(next), ['AG', 'AI', 'AL']);
      const back = await get(
        `/api/countries?limit=3&before=${new URL(next.json.links.prev).searchParams.get('before')}`,
      );
      assert.deepEqual(codes(back), ['AD', 'AE', 'AF']);
      const all: string[] = [];
      let url: string | null = '/api/countries?limit=100';
      while (url) {
        const page: any = await get(url);
        all.push(...codes(page));
        url = page.json.links.next
          ? new URL(page.json.links.next).pathname + new URL(page.json.links.next).search
          : null;
      }
      assert.equal(all.length, 250);
      assert.deepEqual(all, [...all].sort());
    });

    it('filters countries by region and by subregion or intermediate region', async () => {
      const western = codes(await get('/api/countries?subregion=155&limit=100'));
      assert.deepEqual(western, ['AT', 'BE', 'CH', 'DE', 'FR', 'LI', 'LU', 'MC', 'NL']);
      const eastAfrica = codes(await get('/api/countries?subregion=14&limit=100'));
      assert.ok(eastAfrica.includes('KE') && eastAfrica.includes('ET'));
      const europe = codes(await get('/api/countries?region=150&limit=100'));
      assert.ok(europe.includes('FR') && europe.includes('XK') && !europe.includes('JP'));
      badParameter(await get('/api/countries?subregion=0'), 400, 'invalidQueryParameter', 'subregion');
    });

    it('finds a country by alpha-2 or alpha-3 code in any case, named in the locale', async () => {
      const france = await get('/api/countries/fr');
      assert.equal(france.statusCode, 200);
      assert.equal(france.json.data.type, 'countries');
      assert.deepEqual(france.json.data.attributes, {
        code: 'FR',
        alpha3: 'FRA',
        m49: '250',
        name: 'France',
        latitude: 46,
        longitude: 2,
        regionCode: '150',
        subregionCode: '155',
        intermediateRegionCode: null,
      });
      assert.equal((await get('/api/countries/FRA')).json.data.id, france.json.data.id);
      assert.equal((await get('/api/countries/dEu', 'fr-FR')).json.data.attributes.name, 'Allemagne');
      assert.equal((await get('/api/countries/ke')).json.data.attributes.intermediateRegionCode, '014');
      assert.equal((await get('/api/countries/ZZ')).statusCode, 404);
      assert.equal((await get('/api/countries/ZZZ')).statusCode, 404);
      badParameter(await get('/api/countries/F1'), 422, 'validationFailed', 'code');
      badParameter(await get('/api/countries/FRAN'), 422, 'validationFailed', 'code');
    });
  });

  describe('cities', () => {
    it('lists cities most populated first, by pages, of one country by alpha-2 or alpha-3', async () => {
      const first = await get('/api/cities?limit=5');
      assert.equal(first.statusCode, 200);
      const populations = first.json.data.map((item: any) => item.attributes.population);
      assert.deepEqual(
        populations,
        [...populations].sort((a, b) => b - a),
      );
      const next = await get(`/api/cities?limit=5&cursor=${new URL(first.json.links.next).searchParams.get('cursor')}`);
      assert.ok(next.json.data[0].attributes.population <= populations[4]);
      assert.ok(!next.json.data.some((item: any) => first.json.data.some((seen: any) => seen.id === item.id)));

      const french = await get('/api/cities?country=fr&limit=3');
      assert.deepEqual(
        french.json.data.map((item: any) => [item.id, item.attributes.name, item.attributes.countryCode]),
        [
          [paris, 'Paris', 'FR'],
          ...french.json.data.slice(1).map((item: any) => [item.id, item.attributes.name, 'FR']),
        ],
      );
      assert.deepEqual((await get('/api/cities?country=FRA&limit=3')).json.data, french.json.data);
      assert.deepEqual((await get('/api/cities?country=ZZ')).json.data, []);
      badParameter(await get('/api/cities?country=France'), 400, 'invalidQueryParameter', 'country');
      badParameter(await get('/api/cities?limit=100000'), 400, 'invalidQueryParameter', 'limit');
    });

    it('finds a city by its lowercase UUID only', async () => {
      const found = await get(`/api/cities/${paris}`);
      assert.equal(found.statusCode, 200);
      assert.equal(found.json.data.type, 'cities');
      assert.equal(found.json.data.id, paris);
      const { name, asciiName, countryCode, latitude, longitude, population } = found.json.data.attributes;
      assert.deepEqual([name, asciiName, countryCode], ['Paris', 'Paris', 'FR']);
      assert.ok(Math.abs(latitude - 48.85) < 0.1 && Math.abs(longitude - 2.35) < 0.1 && population > 2_000_000);
      assert.equal((await get(`/api/cities/${saoPaulo}`)).json.data.attributes.asciiName, 'Sao Paulo');
      badParameter(await get(`/api/cities/${paris.toUpperCase()}`), 422, 'invalidId', 'id');
      badParameter(await get(`/api/cities/${paris.replaceAll('-', '')}`), 422, 'invalidId', 'id');
      badParameter(await get('/api/cities/paris'), 422, 'invalidId', 'id');
      assert.equal((await get('/api/cities/00000000-0000-4000-8000-000000000000')).statusCode, 404);
    });
  });

  describe('search', () => {
    it('finds cities whatever the accents, the case or a small typo, best match then population first', async () => {
      for (const q of ['sao paulo', 'São Paulo', 'SAO PAULO']) {
        const res = await get(`/api/cities/search?q=${encodeURIComponent(q)}`);
        assert.equal(res.statusCode, 200);
        assert.equal(res.json.data[0].id, saoPaulo, q);
        assert.equal(res.json.meta.limit, 10);
      }
      const typo = await get('/api/cities/search?q=sao%20paolo');
      assert.ok(
        typo.json.data.some((item: any) => item.id === saoPaulo),
        'a typo still finds it',
      );
      const parisHits = (await get('/api/cities/search?q=paris&limit=3')).json.data;
      assert.equal(parisHits.length, 3);
      assert.equal(parisHits[0].id, paris, 'of the exact matches, the most populated');
      assert.equal(parisHits[1].attributes.name, 'Paris');
      const reykja = (await get('/api/cities/search?q=reykjavik')).json.data;
      assert.equal(reykja[0].id, reykjavik);
      assert.deepEqual((await get('/api/cities/search?q=xqzwvj')).json.data, []);
    });

    it('finds countries by their English or French name, answering in the locale', async () => {
      const germany = await get('/api/countries/search?q=allemagne');
      assert.equal(germany.json.data[0].attributes.code, 'DE');
      assert.equal(germany.json.data[0].attributes.name, 'Germany');
      assert.equal((await get('/api/countries/search?q=germny', 'fr-FR')).json.data[0].attributes.name, 'Allemagne');
      assert.equal((await get('/api/countries/search?q=cote%20d%27ivoire')).json.data[0].attributes.code, 'CI');
      assert.deepEqual(codes(await get('/api/regions/search?q=europ')), ['150']);
      assert.equal(codes(await get('/api/regions/search?q=amerique'))[0], '019');
      assert.equal(codes(await get('/api/subregions/search?q=western%20europe'))[0], '155');
      assert.equal(codes(await get('/api/subregions/search?q=asie%20de%20l%27est'))[0], '030');
    });

    it('refuses a blank, huge or LIKE-pattern query and a huge limit, naming the parameter', async () => {
      for (const kind of ['cities', 'countries', 'regions', 'subregions']) {
        badParameter(await get(`/api/${kind}/search`), 400, 'invalidQueryParameter', 'q');
        badParameter(await get(`/api/${kind}/search?q=`), 400, 'invalidQueryParameter', 'q');
        badParameter(await get(`/api/${kind}/search?q=%20%20`), 400, 'invalidQueryParameter', 'q');
        badParameter(await get(`/api/${kind}/search?q=${'a'.repeat(10_000)}`), 400, 'invalidQueryParameter', 'q');
        for (const pattern of ['%', 'par%', '_aris', 'a\\b']) {
          badParameter(
            await get(`/api/${kind}/search?q=${encodeURIComponent(pattern)}`),
            400,
            'invalidQueryParameter',
            'q',
          );
        }
        badParameter(await get(`/api/${kind}/search?q=paris&limit=51`), 400, 'invalidQueryParameter', 'limit');
        badParameter(await get(`/api/${kind}/search?q=paris&limit=0`), 400, 'invalidQueryParameter', 'limit');
      }
    });
  });

  describe('reverse geocoding (the service other areas call)', () => {
    it('finds a city on the other side of the antimeridian', async () => {
      // No city of the reference data is within the radius of a point across the antimeridian from it,
      // so one is placed there for this test (10 km east of 180°), and removed after.
      const { geography } = t.services.areas.geography;
      const eastOf180 = { latitude: -16.5, longitude: -179.95 };
      const id = cityId(999_999_001);
      await t.deps.database.db.insert(cities).values({
        id,
        geonamesId: 999_999_001,
        name: 'Meridian Test Town',
        asciiName: 'Meridian Test Town',
        countryCode: 'FJ',
        population: 1_000,
        ...eastOf180,
      });
      try {
        const found = await geography.nearestCity(-16.5, 179.98);
        assert.equal(found?.id, id);
        assert.ok(found!.distance > 7_000 && found!.distance < 8_000, `${found?.distance} m`);
      } finally {
        await t.deps.database.db.delete(cities).where(eq(cities.id, id));
      }
    });

    it('finds the nearest city within the radius, and none at sea', async () => {
      const { geography } = t.services.areas.geography;
      const inParis = await geography.nearestCity(48.8566, 2.3522);
      assert.equal(inParis?.id, paris);
      assert.equal(inParis?.countryCode, 'FR');
      assert.ok(inParis!.distance < 2_000);
      const inReykjavik = await geography.nearestCity(64.1466, -21.9426);
      assert.equal(inReykjavik?.id, reykjavik);
      assert.equal(inReykjavik?.name, 'Reykjavík');
      assert.equal(inReykjavik?.countryCode, 'IS');
      assert.equal((await geography.nearestCity(48.8584, 2.2945))?.id, paris, 'the Eiffel Tower is in Paris');
      assert.equal((await geography.nearestCity(48.8846, 2.2697))?.name, 'Neuilly-sur-Seine', 'a suburb is itself');
      assert.equal(await geography.nearestCity(30, -40), null, 'the middle of the Atlantic');
      // 17 km west of Egvekinot, whose box of 25 km passes the antimeridian (two longitude spans).
      assert.equal((await geography.nearestCity(66.32, -179.5))?.name, 'Egvekinot', 'across the antimeridian');
      assert.equal(await geography.nearestCity(89.5, 0), null, 'near the pole, every longitude: no city');
      assert.equal(await geography.nearestCity(1e-170, 5e-324), null, 'tiny degrees do not underflow in SQL');
      assert.equal(await geography.nearestCity(Number.NaN, 2), null);
      assert.equal(await geography.nearestCity(91, 2), null);
      const city = await geography.cityById(paris);
      assert.deepEqual(city && { id: city.id, name: city.name, countryCode: city.countryCode }, {
        id: paris,
        name: 'Paris',
        countryCode: 'FR',
      });
      assert.equal(await geography.cityById('not-a-uuid'), null);
    });
  });
});
