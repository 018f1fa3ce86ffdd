/**
 * A trip shared, syndicated and embedded, as a visitor, a feed reader and an oEmbed consumer see it: a
 * share link opened without an account (with its password, not after revocation, not while the trip is
 * hidden), the trip's RSS and Atom well-formed with its public photos and 304 on If-None-Match, its
 * oEmbed answer and its card; and a photo whose position is private shows its city, never a coordinate,
 * in any of these answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { submitSharePassword } from '../../../test/helpers/share-links.ts';
import { childrenNamed, onlyChild, parseXml } from '../../../test/helpers/xml.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';
import { places } from './itineraries.ts';

const hexOf = (id: string) => id.replaceAll('-', '');
/** The private photo's own position: digits that no answer to a visitor may carry. */
const privateSpot = { latitude: 48.2061234, longitude: 16.3712345 };
const privateDigits = ['48.2061', '16.3712', '48,2061', '16,3712'];

describe('a trip shared, in feeds and embedded', () => {
  let t: TestApp;
  let base: string;
  let ana: TestUser;
  let bob: TestUser;
  let tripId: string;
  let rome: string;
  let vienna: string;
  let romeLargeSize: number;

  const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });
  const share = (user: TestUser, body: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/users/me/share-links', token: user.token, body });
  const open = (token: string) => get(`/s/${token}`, { accept: 'text/html', 'accept-language': 'en-US' });
  const submit = (token: string, password: string) => submitSharePassword(t, token, password);
  const setHidden = (hidden: boolean) =>
    t.request({ method: 'PATCH', url: `/api/users/me/trips/${tripId}`, token: ana.token, body: { hidden } });
  /** Sets the user's home in Paris (which recomputes their trips) and lists their trips. */
  const tripsFromParis = async (user: TestUser) => {
    const home = await t.request({
      method: 'PUT',
      url: '/api/users/me/trip-home',
      token: user.token,
      body: places.paris,
    });
    assert.equal(home.statusCode, 200, home.body);
    return (await get(`/api/users/${user.id}/trips`)).json.data;
  };
  const assertNoPrivatePosition = (body: string, what: string) => {
    for (const digits of privateDigits) assert.ok(!body.includes(digits), `${what} carries no private position`);
  };

  before(async () => {
    t = await createTestApp();
    base = t.app.publicUrl;
    ana = await createUser(t, { nickname: 'Ana Roams' });
    bob = await createUser(t);
    const geography = t.services.areas.geography.geography;
    const romeCity = (await geography.nearestCity(places.rome.latitude, places.rome.longitude))!;
    const viennaCity = (await geography.nearestCity(privateSpot.latitude, privateSpot.longitude))!;
    // Rome: a real upload (its large variant has a size), its position public.
    const uploaded = await upload(t, '/api/users/me/media', ana.token, await makeJpeg({ width: 96, height: 64 }));
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    rome = uploaded.json.data.id;
    await updateMediaRow(t, rome, {
      ...places.rome,
      cityId: romeCity.id,
      countryCode: romeCity.countryCode,
      takenAt: new Date('2026-05-01T09:00:00Z'),
      description: 'The Forum at dawn',
      locationPublic: true,
    });
    const large = await get(`/media/${hexOf(rome)}.webp?size=large`);
    assert.equal(large.statusCode, 200);
    romeLargeSize = Number(large.headers['content-length']);
    // Vienna: its position private.
    vienna = (
      await createMediaRow(t, ana.id, {
        ...privateSpot,
        cityId: viennaCity.id,
        countryCode: viennaCity.countryCode,
        takenAt: new Date('2026-05-03T09:00:00Z'),
        description: 'A café on the Ring',
        locationPublic: false,
      })
    ).id;
    const trips = await tripsFromParis(ana);
    assert.equal(trips.length, 1);
    tripId = trips[0].id;
    assert.deepEqual(trips[0].attributes.photoIds, [rome, vienna]);
  });
  after(() => t.close());

  describe('share links', () => {
    it('opens a trip for a visitor without an account: its title, cities and photos, no position', async () => {
      const created = await share(ana, { targetKind: 'trip', targetId: tripId });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json.data.attributes.targetKind, 'trip');
      const page = await open(created.json.data.attributes.token);
      assert.equal(page.statusCode, 200, page.body);
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.match(page.body, /<h1>Rome and Vienna · May 1\s?–\s?3, 2026<\/h1>/u);
      assert.match(page.body, /<p class="shared__caption">Rome and Vienna<\/p>/);
      assert.ok(page.body.includes(`/media/${hexOf(rome)}.webp?size=large`));
      assert.ok(page.body.includes(`/media/${hexOf(vienna)}.webp?size=large`));
      assert.ok(page.body.includes('A café on the Ring'));
      assert.ok(!page.body.includes(`/@${ana.username}`), 'no link to the owner’s profile');
      assert.ok(!page.body.includes(`/trips/${tripId}`), 'no link to the trip’s own page either');
      assertNoPrivatePosition(page.body, 'the shared page');
    });

    it('refuses a trip not one’s own, and an unknown one, as 404 on /targetId', async () => {
      for (const targetId of [tripId, '00000000-0000-4000-8000-000000000000']) {
        const res = await share(bob, { targetKind: 'trip', targetId });
        assert.equal(res.statusCode, 404);
        assert.equal(res.json.errors[0].source.pointer, '/targetId');
      }
    });

    it('asks for its password, and stops opening once revoked', async () => {
      const created = await share(ana, { targetKind: 'trip', targetId: tripId, password: 'via appia' });
      const { token } = created.json.data.attributes;
      const form = await open(token);
      assert.equal(form.statusCode, 200);
      assert.match(form.body, /id="share-password"/);
      assert.ok(!form.body.includes(hexOf(rome)), 'nothing of the trip before the password');
      assert.equal((await submit(token, 'wrong one')).statusCode, 403);
      const opened = await submit(token, 'via appia');
      assert.equal(opened.statusCode, 200);
      assert.ok(opened.body.includes(`/media/${hexOf(rome)}.webp?size=large`));
      const revoke = await t.request({
        method: 'DELETE',
        url: `/api/users/me/share-links/${created.json.data.id}`,
        token: ana.token,
      });
      assert.equal(revoke.statusCode, 204);
      assert.equal((await submit(token, 'via appia')).statusCode, 404);
      assert.equal((await open(token)).statusCode, 404);
    });

    it('answers 404 while the trip is hidden, and opens again once the owner shows it', async () => {
      const created = await share(ana, { targetKind: 'trip', targetId: tripId });
      const { token } = created.json.data.attributes;
      assert.equal((await setHidden(true)).statusCode, 200);
      try {
        assert.equal((await open(token)).statusCode, 404);
        const another = await share(ana, { targetKind: 'trip', targetId: tripId });
        assert.equal(another.statusCode, 201, 'the owner may still make a link to it (it opens once shown)');
      } finally {
        assert.equal((await setHidden(false)).statusCode, 200);
      }
      assert.equal((await open(token)).statusCode, 200);
    });
  });

  describe('feeds', () => {
    it('serves the trip as well-formed RSS 2.0: its photos newest first, large variants as enclosures', async () => {
      const res = await get(`/trips/${tripId}.rss`, { 'accept-language': 'en-US' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/rss\+xml; charset=utf-8$/);
      const channel = onlyChild(parseXml(res.body), 'channel');
      assert.match(onlyChild(channel, 'title').text, /^Rome and Vienna · /);
      assert.equal(onlyChild(channel, 'link').text, `${base}/trips/${tripId}`);
      assert.equal(onlyChild(channel, 'atom:link').attributes.href, `${base}/trips/${tripId}.rss`);
      const items = childrenNamed(channel, 'item');
      assert.deepEqual(
        items.map((item) => onlyChild(item, 'guid').text),
        [vienna, rome].map((id) => `urn:uuid:${id}`),
      );
      const enclosure = onlyChild(items[1]!, 'enclosure').attributes;
      assert.equal(enclosure.url, `${base}/media/${hexOf(rome)}.webp?size=large`);
      assert.equal(Number(enclosure.length), romeLargeSize);
      assertNoPrivatePosition(res.body, 'the RSS feed');
    });

    it('serves it as well-formed Atom with an ETag, 304 on If-None-Match', async () => {
      const res = await get(`/trips/${tripId}.atom`);
      assert.equal(res.statusCode, 200, res.body);
      const feed = parseXml(res.body);
      assert.equal(feed.name, 'feed');
      assert.equal(feed.attributes.xmlns, 'http://www.w3.org/2005/Atom');
      assert.equal(childrenNamed(feed, 'entry').length, 2);
      assertNoPrivatePosition(res.body, 'the Atom feed');
      const etag = String(res.headers.etag);
      const again = await get(`/trips/${tripId}.atom`, { 'if-none-match': etag });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
    });

    it('links a photo of a post of several photos to its post’s page, and leaves out a sensitive one', async () => {
      const cleo = await createUser(t);
      const prague = (await t.services.areas.geography.geography.nearestCity(
        places.prague.latitude,
        places.prague.longitude,
      ))!;
      const inPrague = (takenAt: string) => ({
        ...places.prague,
        cityId: prague.id,
        countryCode: prague.countryCode,
        takenAt: new Date(takenAt),
      });
      const lead = await createMediaRow(t, cleo.id, { ...inPrague('2026-06-01T09:00:00Z'), photosCount: 2 });
      const member = await createMediaRow(t, cleo.id, {
        ...inPrague('2026-06-01T10:00:00Z'),
        postId: lead.id,
        postPosition: 1,
      });
      await updateMediaRow(t, lead.id, { postId: lead.id });
      // Marked sensitive by a moderator: out of every feed.
      await createMediaRow(t, cleo.id, { ...inPrague('2026-06-01T11:00:00Z'), flag: 1 });
      const [trip] = await tripsFromParis(cleo);
      assert.equal(trip.attributes.photoCount, 3, 'the trip shows all three');
      const channel = onlyChild(parseXml((await get(`/trips/${trip.id}.rss`)).body), 'channel');
      const items = childrenNamed(channel, 'item');
      assert.deepEqual(
        items.map((item) => [onlyChild(item, 'guid').text, onlyChild(item, 'link').text]),
        [
          [`urn:uuid:${member.id}`, `${base}/posts/${hexOf(lead.id)}`],
          [`urn:uuid:${lead.id}`, `${base}/posts/${hexOf(lead.id)}`],
        ],
      );
    });

    it('links the feeds and oEmbed in the trip page’s head', async () => {
      const page = await get(`/trips/${tripId}`, { accept: 'text/html' });
      assert.equal(page.statusCode, 200);
      for (const [type, extension] of [
        ['application/rss+xml', 'rss'],
        ['application/atom+xml', 'atom'],
      ])
        assert.ok(
          page.body.includes(`<link rel="alternate" type="${type}" href="${base}/trips/${tripId}.${extension}"`),
        );
      const oembed = `${base}/api/oembed?url=${encodeURIComponent(`${base}/trips/${tripId}`)}&amp;format=json`;
      assert.ok(page.body.includes(`<link rel="alternate" type="application/json+oembed" href="${oembed}"`));
    });

    it('answers 404 for an unknown or hidden trip, 422 for a malformed id', async () => {
      assert.equal((await get('/trips/00000000-0000-4000-8000-000000000000.rss')).statusCode, 404);
      assert.equal((await get('/trips/not-a-trip.atom')).statusCode, 422);
      assert.equal((await setHidden(true)).statusCode, 200);
      try {
        // Another locale: not the document kept a minute from the tests above.
        assert.equal((await get(`/trips/${tripId}.rss`, { 'accept-language': 'fr-FR' })).statusCode, 404);
      } finally {
        assert.equal((await setHidden(false)).statusCode, 200);
      }
    });
  });

  describe('oEmbed and the card', () => {
    it('answers oEmbed for the trip page and its card: a rich answer framing the card', async () => {
      for (const path of [`/trips/${tripId}`, `/embed/trips/${tripId}`]) {
        const res = await get(`/api/oembed?url=${encodeURIComponent(`${base}${path}`)}&maxwidth=320`, {
          'accept-language': 'en-US',
        });
        assert.equal(res.statusCode, 200, res.body);
        const answer = JSON.parse(res.body);
        assert.equal(answer.type, 'rich');
        assert.match(answer.title, /^Rome and Vienna · /);
        assert.equal(answer.author_name, 'Ana Roams');
        assert.equal(answer.author_url, `${base}/@${ana.username}`);
        assert.equal(answer.width, 320);
        assert.ok(answer.height > 180, 'the cover and the text');
        assert.match(answer.html, new RegExp(`^<iframe src="${base}/embed/trips/${tripId}" width="320"`));
        assert.equal(answer.thumbnail_url, `${base}/media/${hexOf(rome)}.webp?size=thumb`);
        assertNoPrivatePosition(res.body, 'the oEmbed answer');
      }
    });

    it('serves the card framable by anyone, without script: title, author, dates, cover and cities', async () => {
      const card = await get(`/embed/trips/${tripId}`, { 'accept-language': 'en-US' });
      assert.equal(card.statusCode, 200);
      assert.match(String(card.headers['content-security-policy']), /frame-ancestors \*/);
      assert.equal(card.headers['x-frame-options'], undefined);
      assert.ok(!card.body.includes('<script'), 'no script: it works sandboxed');
      assert.ok(card.body.includes(`href="${base}/trips/${tripId}" target="_blank"`));
      assert.ok(card.body.includes(`href="${base}/@${ana.username}" target="_blank"`));
      assert.match(card.body, /May 1, 2026 to May 3, 2026/);
      assert.ok(card.body.includes(`/media/${hexOf(rome)}.webp?size=small`), 'the cover');
      assert.match(card.body, /2 photos · Rome and Vienna/);
      assertNoPrivatePosition(card.body, 'the card');
    });

    it('answers 404 for a hidden trip, its card too, and for an unknown one', async () => {
      assert.equal((await setHidden(true)).statusCode, 200);
      try {
        assert.equal((await get(`/embed/trips/${tripId}`)).statusCode, 404);
        const url = encodeURIComponent(`${base}/trips/${tripId}`);
        assert.equal((await get(`/api/oembed?url=${url}`)).statusCode, 404);
      } finally {
        assert.equal((await setHidden(false)).statusCode, 200);
      }
      assert.equal((await get('/embed/trips/00000000-0000-4000-8000-000000000000')).statusCode, 404);
      assert.equal((await get('/embed/trips/not-a-trip')).statusCode, 422);
    });
  });
});
