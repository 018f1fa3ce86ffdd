import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp, type TestResponse } from '../../../test/helpers/app.ts';
import { createUser, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';

const html = { accept: 'text/html' };
const hexOf = (id: string) => id.replaceAll('-', '');

/** The nonce of the response's CSP, after checking the policy's other rules. */
function cspNonce(res: TestResponse): string {
  const csp = String(res.headers['content-security-policy']);
  const match = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp);
  assert.ok(match, csp);
  assert.match(csp, new RegExp(`style-src 'self' 'nonce-${match[1]!.replace(/[+/=]/g, '\\$&')}'`));
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /img-src 'self' data:/);
  assert.match(csp, /connect-src 'self'/);
  return match[1]!;
}

function assertPage(res: TestResponse, status = 200) {
  assert.equal(res.statusCode, status, res.body.slice(0, 500));
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.match(res.body, /^<!doctype html>/);
  assert.match(res.body, /<header class="site-header">/);
  assert.match(res.body, /<main id="main"/);
  assert.equal(res.headers['referrer-policy'], 'same-origin');
  assert.ok(res.headers['permissions-policy']);
  assert.equal(res.headers.vary, 'Accept-Language, Cookie');
}

describe('web pages', () => {
  let t: TestApp;
  let ana: TestUser;
  let mallory: TestUser;
  let marseille: { id: string; name: string };
  const media: string[] = [];
  const get = (url: string, headers: Record<string, string> = {}, token?: string) =>
    t.request({ method: 'GET', url, headers: { ...html, ...headers }, ...(token ? { token } : {}) });

  before(async () => {
    t = await createTestApp();
    ana = await createUser(t, { username: 'ana', nickname: 'Ana Travels' });
    mallory = await createUser(t, { username: 'mallory', nickname: 'Mallory' });
    await updateUserRow(t, mallory.id, { nickname: '<script>alert(1)</script>' });
    const [found] = await t.services.areas.geography.geography.searchCities('Marseille', 1);
    assert.ok(found);
    marseille = { id: found.row.id, name: found.row.name };
    for (let index = 0; index < 3; index += 1) {
      const row = await createMediaRow(t, ana.id, {
        cityId: marseille.id,
        countryCode: 'FR',
        description: `Old port at dusk ${index}`,
      });
      media.push(row.id);
    }
    await createMediaRow(t, mallory.id, {
      cityId: marseille.id,
      countryCode: 'FR',
      description: 'A photo <img src=x onerror=alert(2)> here',
    });
    // Its owner keeps its position private: never listed under a place.
    await createMediaRow(t, ana.id, {
      cityId: marseille.id,
      countryCode: 'FR',
      locationPublic: false,
      description: 'Secret garden',
    });
    await createMediaRow(t, ana.id, { published: false, description: 'Draft not published' });
    const like = await t.request({
      method: 'PUT',
      url: `/api/users/me/media/${media[1]}/reaction`,
      token: mallory.token,
      body: { type: 'like' },
    });
    assert.equal(like.statusCode, 200);
  });
  after(() => t.close());

  it('shows the home page with the newest public media, places and security headers', async () => {
    const res = await get('/');
    assertPage(res);
    const nonce = cspNonce(res);
    assert.match(res.body, /Old port at dusk 2/);
    assert.doesNotMatch(res.body, /Draft not published/);
    assert.ok(res.body.includes(`src="/media/${hexOf(media[0]!)}.webp?size=thumb"`));
    // What trends in the country with the most public media: the liked one first.
    const trending = /<h2 id="home-trending">Trending in France<\/h2>.*?<\/section>/s.exec(res.body);
    assert.ok(trending, 'a trending section');
    assert.match(trending[0], new RegExp(`<img src="/media/${hexOf(media[1]!)}\\.webp\\?size=thumb"`));
    assert.match(trending[0], /1 like</);
    assert.ok(res.body.includes(`href="/travel?country=FR&amp;city=${marseille.id}"`));
    assert.match(res.body, /<link rel="canonical" href="http:\/\/[^"]+\/"/);
    assert.match(res.body, /<meta property="og:title" content="Travel Media"/);
    assert.match(res.body, /<meta name="twitter:card" content="summary_large_image"/);
    assert.match(res.body, /<a class="button" href="\/login">Sign in<\/a>/);
    // Every script or inline style carries this response's nonce, and the next response has another.
    for (const match of res.body.matchAll(/<(script|style)\b[^>]*>/g))
      assert.ok(match[0].includes(`nonce="${nonce}"`), match[0]);
    assert.doesNotMatch(res.body, /\sstyle="/);
    assert.notEqual(cspNonce(await get('/')), nonce);
  });

  it('escapes user text', async () => {
    const home = await get('/');
    assert.doesNotMatch(home.body, /<script>alert|<img src=x/);
    // Text is escaped (`<` and `&`; a `>` alone cannot open anything), attributes too.
    assert.match(home.body, />&lt;script>alert\(1\)&lt;\/script><\/a>/);
    assert.match(home.body, /alt="A photo &lt;img src=x onerror=alert\(2\)> here"/);
    const profile = await get('/@mallory');
    assertPage(profile);
    assert.doesNotMatch(profile.body, /<script>alert/);
    assert.match(profile.body, /<h1>&lt;script>alert\(1\)&lt;\/script><\/h1>/);
  });

  it('renders in French from Accept-Language, and from the locale cookie over it', async () => {
    const res = await get('/', { 'accept-language': 'fr-FR,fr;q=0.9' });
    assertPage(res);
    assert.match(res.body, /<html lang="fr">/);
    assert.match(res.body, /Partagées à l’instant/);
    assert.match(res.body, /Se connecter/);
    assert.equal(res.headers['content-language'], 'fr-FR');
    const cookie = await get('/how-it-works', { 'accept-language': 'en-US', cookie: 'locale=fr-FR' });
    assert.match(cookie.body, /Comment ça marche/);
    const english = await get('/how-it-works', { 'accept-language': 'fr-FR', cookie: 'locale=en-US' });
    assert.match(english.body, /<h1>How it works<\/h1>/);
  });

  it('shows the signed-in viewer in the header', async () => {
    const res = await get('/travel', {}, ana.token);
    assertPage(res);
    assert.match(res.body, /<a class="site-account__me" href="\/@ana">Ana Travels<\/a>/);
    assert.match(res.body, /<form method="post" action="\/logout"/);
    // The web sign-in cookie (a session of the same table) names the viewer of a page too.
    const cookie = await get('/how-it-works', { cookie: `tm_session=${ana.token}` });
    assert.match(cookie.body, /<a class="site-account__me" href="\/@ana">Ana Travels<\/a>/);
    // So does the 404 page of a path no route serves.
    const lost = await get('/no/such/page', { cookie: `tm_session=${ana.token}` });
    assert.equal(lost.statusCode, 404);
    assert.match(lost.body, /<a class="site-account__me" href="\/@ana">Ana Travels<\/a>/);
    assert.doesNotMatch((await get('/no/such/page')).body, /site-account__me/);
  });

  it('browses public media by country and city, with a plain "more" link', async () => {
    const world = await get('/travel');
    assertPage(world);
    assert.match(world.body, /<a href="\/travel\?country=FR">France<\/a>/);
    const country = await get('/travel?country=fr');
    assertPage(country);
    assert.match(
      country.body,
      new RegExp(`href="/travel\\?country=FR&amp;city=${marseille.id}">${marseille.name}</a>`),
    );
    assert.doesNotMatch(country.body, /Secret garden/);
    const city = await get(`/travel?country=FR&city=${marseille.id}&limit=2`);
    assertPage(city);
    assert.match(city.body, /aria-current="page">Marseille</);
    const more = /href="(\/travel\?country=FR&amp;city=[^"]+&amp;cursor=[A-Za-z0-9_-]+)"/.exec(city.body);
    assert.ok(more, 'a more link');
    const next = await get(`${more[1]!.replaceAll('&amp;', '&')}&limit=2`);
    assertPage(next);
    const shownFirst = [...city.body.matchAll(/Old port at dusk \d|A photo &lt;img/g)].map((m) => m[0]);
    const shownNext = [...next.body.matchAll(/Old port at dusk \d|A photo &lt;img/g)].map((m) => m[0]);
    assert.equal(new Set([...shownFirst, ...shownNext]).size, 4);
    assert.doesNotMatch(next.body, /Secret garden/);
  });

  it('answers the 404 page for unknown places and 400 for malformed ones', async () => {
    assertPage(await get('/travel?country=ZZ'), 404);
    const elsewhere = await get(`/travel?country=DE&city=${marseille.id}`);
    assertPage(elsewhere, 404);
    assert.match(elsewhere.body, /Page not found/);
    assert.equal((await get('/travel?country=France')).statusCode, 400);
  });

  it('shows a profile with counts, level and public media, and 404 for unknown, banned or erased users', async () => {
    const res = await get('/@ANA');
    assertPage(res);
    assert.match(res.body, /<h1>Ana Travels<\/h1>/);
    // Every public post counts, its position shown or not (the unpublished draft does not).
    assert.match(res.body, /<li><strong>4<\/strong> photos<\/li>/);
    assert.match(res.body, /Level \d+/);
    assert.match(res.body, /<link rel="canonical" href="[^"]+\/@ana"/);
    assert.match(res.body, /<meta property="og:type" content="profile"/);
    assert.doesNotMatch(res.body, /Draft not published/);
    assert.match(res.body, /Secret garden/);
    const paged = await get('/@ana?limit=2');
    const more = /href="(\/@ana\?cursor=[A-Za-z0-9_-]+)"/.exec(paged.body);
    assert.ok(more, 'a more link');
    const next = await get(`${more[1]}&limit=2`);
    assertPage(next);
    assert.equal([...next.body.matchAll(/<figure class="media-card"/g)].length, 2);
    assert.doesNotMatch(next.body, /href="\/@ana\?cursor=/);

    await updateUserRow(t, ana.id, { avatarMediaId: media[0]!, coverMediaId: media[2]! });
    const pictured = await get('/@ana', {}, mallory.token);
    assert.ok(pictured.body.includes(`<img class="profile-avatar" src="/media/${hexOf(media[0]!)}.webp?size=thumb"`));
    assert.ok(
      pictured.body.includes(`src="/media/${hexOf(media[2]!)}.webp?size=small" alt="Ana Travels's cover picture"`),
    );
    assert.match(
      pictured.body,
      /<meta property="og:image" content="http:\/\/[^"]+\/media\/[0-9a-f]{32}\.webp\?size=small"/,
    );

    const unknown = await get('/@nobody-here');
    assertPage(unknown, 404);
    assert.match(unknown.body, /Page not found/);
    const banned = await createUser(t, { username: 'banned1' });
    await updateUserRow(t, banned.id, { bannedAt: t.clock.now() });
    assertPage(await get('/@banned1'), 404);
    const erased = await createUser(t, { username: 'erased1' });
    await updateUserRow(t, erased.id, { anonymizedAt: t.clock.now() });
    assertPage(await get('/@erased1'), 404);
  });

  it('lists establishments, with a clear empty state before any', async () => {
    const empty = await get('/sustainable-tourism');
    assertPage(empty);
    assert.match(empty.body, /No establishments are listed yet/);
    await t.services.areas.catalogue.establishments.save({
      externalId: 'web-test-1',
      name: 'Calanques <Eco> Lodge',
      kind: 'ecolodge',
      labels: ['green-key', 'zero-waste'],
      countryCode: 'FR',
      cityId: marseille.id,
      website: 'https://lodge.example/',
      description: { 'en-US': 'Solar powered.', 'fr-FR': 'Alimenté au solaire.' },
    });
    const listed = await get('/sustainable-tourism', { 'accept-language': 'fr' });
    assertPage(listed);
    assert.match(listed.body, /<h3 [^>]*>Calanques &lt;Eco> Lodge<\/h3>/);
    assert.match(listed.body, /Écolodge/);
    assert.match(listed.body, /Zéro déchet/);
    assert.match(listed.body, /Alimenté au solaire\./);
    t.clock.advance(1000); // newest first
    await t.services.areas.catalogue.establishments.save({
      externalId: 'web-test-2',
      name: 'Vieux Port Hostel',
      kind: 'hostel',
      countryCode: 'FR',
    });
    const first = await get('/sustainable-tourism?limit=1');
    assert.match(first.body, /Vieux Port Hostel/);
    const more = /href="(\/sustainable-tourism\?cursor=[A-Za-z0-9_-]+)"/.exec(first.body);
    assert.ok(more, 'a more link');
    const second = await get(`${more[1]}&limit=1`);
    assert.match(second.body, /Calanques &lt;Eco> Lodge/);
  });

  it('explains the service and the commission rules', async () => {
    const how = await get('/how-it-works');
    assertPage(how);
    assert.match(how.body, /<h1>How it works<\/h1>/);
    const commissions = await get('/commissions');
    assertPage(commissions);
    assert.match(commissions.body, /within 30 days of the click/);
    assert.match(commissions.body, /€14\.99/);
    assert.match(commissions.body, /Your own clicks on your photos are recorded but never credited/);
    const french = await get('/commissions', { 'accept-language': 'fr-FR' });
    assert.match(french.body, /dans les 30 jours qui suivent le clic/);
    assert.match(french.body, /Vos propres clics sur vos photos sont enregistrés mais jamais attribués/);
  });

  it('publishes a sitemap and robots.txt', async () => {
    const sitemap = await t.request({ method: 'GET', url: '/sitemap.xml' });
    assert.equal(sitemap.statusCode, 200);
    assert.match(String(sitemap.headers['content-type']), /^application\/xml/);
    for (const path of ['/', '/travel', '/sustainable-tourism', '/how-it-works', '/commissions', '/explorer', '/@ana'])
      assert.ok(sitemap.body.includes(`${t.app.publicUrl}${path}</loc>`), path);
    assert.ok(sitemap.body.includes(`${t.app.publicUrl}/travel?country=FR</loc>`));
    assert.doesNotMatch(sitemap.body, /banned1|erased1/);
    const robots = await t.request({ method: 'GET', url: '/robots.txt' });
    assert.equal(robots.statusCode, 200);
    assert.match(robots.body, /Disallow: \/api\//);
    assert.ok(robots.body.includes(`Sitemap: ${t.app.publicUrl}/sitemap.xml`));
  });
});
