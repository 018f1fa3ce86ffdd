/**
 * Feeds and oEmbed as a reader and a consumer see them: RSS 2.0 and Atom of a profile and a hashtag,
 * well-formed (read with a strict XML reader) with their required elements, public photos only, the
 * large variants as enclosures with their real size, 304 on a matching If-None-Match; the discovery
 * links in the profile's head; oEmbed answers for a post and a profile, 404 for another site's URL or
 * content that is not public, 501 for XML; the embeddable card framable by any site.
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
    assert.equal(onlyChild(first, 'link').text, `${base}/embed/posts/${hexOf(posts[0]!)}`);
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
