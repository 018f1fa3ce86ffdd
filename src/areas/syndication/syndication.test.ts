/**
 * Feeds and oEmbed as a reader and a consumer see them: RSS 2.0 and Atom of a profile and a hashtag,
 * well-formed (read with a strict XML reader) with their required elements, public photos only, the
 * large variants as enclosures with their real size, 304 on a matching If-None-Match; the discovery
 * links in the profile's head; oEmbed answers for a post and a profile, 404 for another site's URL or
 * content that is not public, 501 for XML; the embeddable card framable by any site. A post of several
 * photos: one entry with its photos as enclosures, oEmbed of its page, its card showing them all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { createMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { childrenNamed, onlyChild, parseXml } from '../../../test/helpers/xml.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';

const hexOf = (id: string) => id.replaceAll('-', '');
const tricky = 'Tom & Jerry <b>on</b> the "quay" it’s\u0001 fine';

describe('feeds and oEmbed', () => {
  let t: TestApp;
  let base: string;
  let ana: TestUser;
  let posts: string[];
  let largeSizes: Map<string, number>;
  let hidden: string;
  let sensitive: string;
  before(async () => {
    t = await createTestApp();
    base = t.app.publicUrl;
    ana = await createUser(t);
    const bob = await createUser(t);
    posts = [];
    largeSizes = new Map();
    for (const [index, owner] of [ana, ana, bob].entries()) {
      const jpeg = await makeJpeg({ width: 64 + index, height: 48 });
      const res = await upload(t, '/api/users/me/media', owner.token, jpeg);
      assert.equal(res.statusCode, 201, res.body);
      const id: string = res.json.data.id;
      await updateMediaRow(t, id, { description: index === 0 ? tricky : `Harbour ${index}`, hashtags: ['quay'] });
      const large = await t.request({ method: 'GET', url: `/media/${hexOf(id)}.webp?size=large` });
      assert.equal(large.statusCode, 200);
      largeSizes.set(id, Number(large.headers['content-length']));
      posts.push(id);
      t.clock.advance(1000);
    }
    hidden = (await createMediaRow(t, ana.id, { hashtags: ['quay'], flag: 2 })).id;
    sensitive = (await createMediaRow(t, ana.id, { hashtags: ['quay'], flag: 1 })).id;
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });

  it('serves a profile as well-formed RSS 2.0 with its public photos, their large variants as enclosures', async () => {
    const res = await get(`/@${ana.username.toUpperCase()}.rss`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/rss\+xml; charset=utf-8$/);
    const rss = parseXml(res.body);
    assert.equal(rss.name, 'rss');
    assert.equal(rss.attributes.version, '2.0');
    const channel = onlyChild(rss, 'channel');
    for (const name of ['title', 'link', 'description']) assert.notEqual(onlyChild(channel, name).text.trim(), '');
    assert.equal(onlyChild(channel, 'link').text, `${base}/@${ana.username}`);
    assert.equal(onlyChild(channel, 'atom:link').attributes.href, `${base}/@${ana.username}.rss`);
    const items = childrenNamed(channel, 'item');
    const anaPosts = posts.slice(0, 2).reverse();
    assert.deepEqual(
      items.map((item) => onlyChild(item, 'guid').text),
      anaPosts.map((id) => `urn:uuid:${id}`),
      'newest first; neither the hidden nor the sensitive photo, nor another user’s',
    );
    const first = items[1]!;
    assert.equal(onlyChild(first, 'description').text, tricky.replace('\u0001', ''), 'escaped, and read back whole');
    assert.ok(!Number.isNaN(Date.parse(onlyChild(first, 'pubDate').text)));
    const enclosure = onlyChild(first, 'enclosure').attributes;
    assert.equal(enclosure.url, `${base}/media/${hexOf(posts[0]!)}.webp?size=large`);
    assert.equal(enclosure.type, 'image/webp');
    assert.equal(Number(enclosure.length), largeSizes.get(posts[0]!));
    assert.equal(onlyChild(first, 'link').text, `${base}/posts/${hexOf(posts[0]!)}`, 'the post’s page');
    assert.ok(!res.body.includes(hexOf(hidden)) && !res.body.includes(hexOf(sensitive)));
    assert.ok(res.headers['last-modified']);
  });

  it('serves the same as well-formed Atom, and answers 304 to a matching If-None-Match', async () => {
    const res = await get(`/@${ana.username}.atom`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/atom\+xml/);
    const feed = parseXml(res.body);
    assert.equal(feed.name, 'feed');
    assert.equal(feed.attributes.xmlns, 'http://www.w3.org/2005/Atom');
    for (const name of ['id', 'title', 'updated']) assert.notEqual(onlyChild(feed, name).text.trim(), '');
    const entries = childrenNamed(feed, 'entry');
    assert.equal(entries.length, 2);
    for (const entry of entries) {
      for (const name of ['id', 'title', 'updated', 'author']) onlyChild(entry, name);
      const enclosure = childrenNamed(entry, 'link').find((link) => link.attributes.rel === 'enclosure');
      assert.equal(enclosure?.attributes.type, 'image/webp');
      assert.ok(Number(enclosure?.attributes.length) > 0);
    }
    const etag = String(res.headers.etag);
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const again = await get(`/@${ana.username}.atom`, { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, etag);
    const changed = await get(`/@${ana.username}.atom`, { 'if-none-match': '"something-else"' });
    assert.equal(changed.statusCode, 200);
  });

  it('serves a hashtag’s public photos of everyone, and 404 for an unknown or banned user', async () => {
    const res = await get('/tags/Quay.rss');
    assert.equal(res.statusCode, 200, res.body);
    const channel = onlyChild(parseXml(res.body), 'channel');
    assert.deepEqual(
      childrenNamed(channel, 'item').map((item) => onlyChild(item, 'guid').text),
      [...posts].reverse().map((id) => `urn:uuid:${id}`),
    );
    assert.equal(parseXml((await get('/tags/nothing_here.atom')).body).name, 'feed', 'an empty feed is still a feed');
    assert.equal((await get('/@nobody_at_all.rss')).statusCode, 404);
    const carl = await createUser(t);
    await updateUserRow(t, carl.id, { bannedAt: t.clock.now() });
    assert.equal((await get(`/@${carl.username}.atom`)).statusCode, 404);
  });

  it('links the feeds and oEmbed in the profile page’s head', async () => {
    const page = await get(`/@${ana.username}`, { accept: 'text/html' });
    assert.equal(page.statusCode, 200);
    assert.ok(
      page.body.includes(`<link rel="alternate" type="application/rss+xml" href="${base}/@${ana.username}.rss"`),
    );
    assert.ok(
      page.body.includes(`<link rel="alternate" type="application/atom+xml" href="${base}/@${ana.username}.atom"`),
    );
    const oembed = `${base}/api/oembed?url=${encodeURIComponent(`${base}/@${ana.username}`)}&amp;format=json`;
    assert.ok(page.body.includes(`<link rel="alternate" type="application/json+oembed" href="${oembed}"`));
    assert.equal(page.headers['x-frame-options'], 'DENY', 'the pages themselves are not framable');
  });

  it('answers oEmbed for a post (a photo fitting maxwidth) and a profile (its card)', async () => {
    const url = `${base}/embed/posts/${hexOf(posts[0]!)}`;
    const res = await get(`/api/oembed?url=${encodeURIComponent(url)}&format=json&maxwidth=40`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    const photo = JSON.parse(res.body);
    assert.equal(photo.version, '1.0');
    assert.equal(photo.type, 'photo');
    assert.ok(photo.width <= 40 && photo.height <= 40 && photo.width > 0);
    assert.equal(photo.url, `${base}/media/${hexOf(posts[0]!)}.webp?size=thumb`, 'none fits: the thumbnail, scaled');
    const whole = JSON.parse((await get(`/api/oembed?url=${encodeURIComponent(url)}`)).body);
    assert.equal(whole.url, `${base}/media/${hexOf(posts[0]!)}.webp?size=large`);
    assert.deepEqual([whole.width, whole.height], [64, 48]);
    assert.equal(photo.author_url, `${base}/@${ana.username}`);
    assert.match(photo.html, new RegExp(`<iframe src="${url}" width="40"`));

    const profile = JSON.parse((await get(`/api/oembed?url=${encodeURIComponent(`${base}/@${ana.username}`)}`)).body);
    assert.equal(profile.type, 'rich');
    assert.ok(profile.html.includes(`${base}/embed/@${ana.username}`));
    assert.ok(profile.width > 0 && profile.height > 0);

    const warned = await createMediaRow(t, ana.id, { authorSensitive: true, contentWarning: 'Spiders' });
    const rich = await get(`/api/oembed?url=${encodeURIComponent(`${base}/embed/posts/${hexOf(warned.id)}`)}`);
    assert.equal(JSON.parse(rich.body).type, 'rich', 'a photo behind a warning is its card, which blurs it');
  });

  describe('a post of several photos', () => {
    let cleo: TestUser;
    let photos: string[];
    let hiddenMember: string;
    before(async () => {
      cleo = await createUser(t);
      const rows = [];
      for (const width of [1600, 1200, 800, 1000]) rows.push(await createMediaRow(t, cleo.id, { width, height: 1200 }));
      photos = rows.map((row) => row.id);
      const made = await t.request({
        method: 'POST',
        url: '/api/users/me/posts',
        token: cleo.token,
        body: {
          caption: 'Three days by the #fjord',
          photos: [photos[2], photos[0], photos[3], photos[1]].map((mediaId) => ({ mediaId })),
        },
      });
      assert.equal(made.statusCode, 201, made.body);
      hiddenMember = photos[3]!;
      await updateMediaRow(t, hiddenMember, { flag: 2 });
      await createMediaRow(t, cleo.id, { description: 'A photo of its own', hashtags: ['fjord'] });
    });
    const lead = () => photos[2]!;
    const ordered = () => [photos[2]!, photos[0]!, photos[1]!];
    const large = (id: string) => `${base}/media/${hexOf(id)}.webp?size=large`;

    it('is one entry of the feeds, linking its page, with its photos as enclosures (RSS: the first)', async () => {
      for (const path of [`/@${cleo.username}`, '/tags/fjord']) {
        const rss = onlyChild(parseXml((await get(`${path}.rss`)).body), 'channel');
        const items = childrenNamed(rss, 'item');
        assert.equal(items.length, 2, `${path}: the post once and the other photo; no member of its own`);
        const item = items.find((each) => onlyChild(each, 'guid').text === `urn:uuid:${lead()}`)!;
        assert.equal(onlyChild(item, 'link').text, `${base}/posts/${hexOf(lead())}`);
        assert.equal(onlyChild(item, 'description').text, 'Three days by the #fjord');
        assert.equal(
          onlyChild(item, 'enclosure').attributes.url,
          large(lead()),
          'one enclosure per item: the first photo',
        );

        const atom = parseXml((await get(`${path}.atom`)).body);
        const entries = childrenNamed(atom, 'entry');
        assert.equal(entries.length, 2);
        const entry = entries.find((each) => onlyChild(each, 'id').text === `urn:uuid:${lead()}`)!;
        const links = childrenNamed(entry, 'link');
        assert.deepEqual(
          links.filter((link) => link.attributes.rel === 'enclosure').map((link) => link.attributes.href),
          ordered().map(large),
          'every photo anyone may see, in order; not the hidden one',
        );
        assert.equal(
          links.find((link) => link.attributes.rel === 'alternate')?.attributes.href,
          `${base}/posts/${hexOf(lead())}`,
        );
      }
    });

    it('answers oEmbed for its page (a member’s id names the post) and its card, as its card', async () => {
      for (const url of [
        `${base}/posts/${hexOf(lead())}`,
        `${base}/posts/${photos[0]}`,
        `${base}/embed/posts/${hexOf(lead())}`,
      ]) {
        const res = await get(`/api/oembed?url=${encodeURIComponent(url)}&maxwidth=400`);
        assert.equal(res.statusCode, 200, url);
        const answer = JSON.parse(res.body);
        assert.equal(answer.type, 'rich', 'several photos: the card, not one photo');
        assert.equal(answer.title, 'Three days by the #fjord');
        assert.ok(answer.html.includes(`src="${base}/embed/posts/${hexOf(lead())}"`));
        assert.equal(answer.width, 400);
        assert.ok(answer.height > 400, 'the tallest photo at that width, and the text');
        assert.equal(answer.thumbnail_url, `${base}/media/${hexOf(lead())}.webp?size=thumb`, 'its first photo');
      }
      const single = `${base}/posts/${hexOf(posts[0]!)}`;
      assert.equal(JSON.parse((await get(`/api/oembed?url=${encodeURIComponent(single)}`)).body).type, 'photo');
      assert.equal(
        (await get(`/api/oembed?url=${encodeURIComponent(`${base}/posts/${hexOf(hidden)}`)}`)).statusCode,
        404,
      );
    });

    it('has a card showing its photos in order without script, and discovery links on its page', async () => {
      const card = await get(`/embed/posts/${hexOf(photos[1]!)}`);
      assert.equal(card.statusCode, 200);
      const shown = [...card.body.matchAll(/<img\s+src="[^"]*\/media\/([0-9a-f]{32})\.webp/g)].map((match) => match[1]);
      assert.deepEqual(shown, ordered().map(hexOf));
      assert.ok(card.body.includes('3 photos'));
      assert.ok(!card.body.includes('<script') && !card.body.includes(hexOf(hiddenMember)));

      const page = await get(`/posts/${hexOf(lead())}`, { accept: 'text/html' });
      assert.equal(page.statusCode, 200);
      const oembed = `${base}/api/oembed?url=${encodeURIComponent(`${base}/posts/${hexOf(lead())}`)}&amp;format=json`;
      assert.ok(page.body.includes(`<link rel="alternate" type="application/json+oembed" href="${oembed}"`));
      assert.ok(
        page.body.includes(`<link rel="alternate" type="application/rss+xml" href="${base}/@${cleo.username}.rss"`),
      );
    });
  });

  it('answers 404 for another site, an unknown page or content that is not public, 501 for XML', async () => {
    const cases: [string, number][] = [
      [`https://elsewhere.example/embed/posts/${hexOf(posts[0]!)}`, 404],
      [`${base}/embed/posts/${hexOf(hidden)}`, 404],
      [`${base}/how-it-works`, 404],
      ['not a url', 404],
      [`${base}/@nobody_at_all`, 404],
    ];
    for (const [url, status] of cases) {
      const res = await get(`/api/oembed?url=${encodeURIComponent(url)}`);
      assert.equal(res.statusCode, status, url);
    }
    const xml = await get(`/api/oembed?url=${encodeURIComponent(`${base}/@${ana.username}`)}&format=xml`);
    assert.equal(xml.statusCode, 501);
    assert.equal(xml.json.errors[0].code, 'formatNotImplemented');
  });

  it('serves the embeddable card framable by any site, the photo and its author, and 404 for a hidden post', async () => {
    const card = await get(`/embed/posts/${hexOf(posts[0]!)}`);
    assert.equal(card.statusCode, 200);
    assert.match(String(card.headers['content-security-policy']), /frame-ancestors \*/);
    assert.equal(card.headers['x-frame-options'], undefined);
    assert.ok(card.body.includes(`/media/${hexOf(posts[0]!)}.webp?size=small`));
    assert.ok(card.body.includes(`href="${base}/@${ana.username}" target="_blank"`));
    assert.ok(!card.body.includes('<script'), 'no script: it works sandboxed');
    assert.equal((await get(`/embed/posts/${hexOf(hidden)}`)).statusCode, 404);
    const profileCard = await get(`/embed/@${ana.username}`);
    assert.equal(profileCard.statusCode, 200);
    assert.match(String(profileCard.headers['content-security-policy']), /frame-ancestors \*/);
  });
});
