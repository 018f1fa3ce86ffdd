/**
 * The pages show a media marked sensitive behind its warning (blurred, revealed by a label without
 * script) to visitors and to viewers who blur, and plainly with its warning in words to a viewer whose
 * blurSensitiveMedia is off: the profile, the home page, the explorer's photo panel.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { createMediaRow } from '../../../test/helpers/media-factory.ts';
import type { MediaRow } from '../media/read-model.ts';

const hexOf = (id: string) => id.replaceAll('-', '');

describe('web pages: content warnings', () => {
  let t: TestApp;
  let ana: TestUser;
  let plain: TestUser;
  let warned: MediaRow;
  let untitled: MediaRow;
  let calm: MediaRow;
  const get = (url: string, token?: string, locale = 'en-US') =>
    t.request({
      method: 'GET',
      url,
      headers: { accept: 'text/html', 'accept-language': locale },
      ...(token ? { token } : {}),
    });
  /** The cards (or the panel's figure) of a page, by media hex, as HTML. */
  const figureOf = (body: string, media: MediaRow) => {
    const at = body.indexOf(`data-media="${hexOf(media.id)}"`);
    assert.ok(at >= 0, `media ${media.id} is on the page`);
    return body.slice(at, body.indexOf('</figure>', at));
  };

  before(async () => {
    t = await createTestApp();
    ana = await createUser(t, { username: 'ana' });
    plain = await createUser(t, { username: 'plain' });
    warned = await createMediaRow(t, ana.id, { authorSensitive: true, contentWarning: 'Spiders <up close>' });
    untitled = await createMediaRow(t, ana.id, { authorSensitive: true });
    calm = await createMediaRow(t, ana.id);
    const off = await t.request({
      method: 'PATCH',
      url: '/api/users/me/settings',
      token: plain.token,
      body: { blurSensitiveMedia: false },
    });
    assert.equal(off.statusCode, 200);
  });
  after(() => t.close());

  it('blurs a sensitive media behind its warning for visitors, with a label that reveals it', async () => {
    const page = await get('/@ana');
    assert.equal(page.statusCode, 200);
    const card = figureOf(page.body, warned);
    assert.match(card, /<div class="sensitive">/);
    const id = `reveal-profile-${hexOf(warned.id)}`;
    assert.match(card, new RegExp(`<input class="sensitive__reveal" type="checkbox" id="${id}"/>`));
    assert.match(card, new RegExp(`<label class="sensitive__cover" for="${id}">`));
    assert.match(card, /Spiders &lt;up close>/, 'the warning, escaped');
    assert.match(card, /<div class="sensitive__photo"><a href=/, 'the photo sits behind the label');
    assert.match(figureOf(page.body, untitled), /<span class="sensitive__warning">Sensitive content<\/span>/);
    assert.doesNotMatch(figureOf(page.body, calm), /sensitive/, 'other media are shown as before');
    assert.doesNotMatch(page.body, /style=/, 'no style attribute (the CSP refuses them)');
  });

  it('blurs for a signed-in viewer by default, and not for one who turned it off', async () => {
    const blurring = await get('/@ana', ana.token);
    assert.match(figureOf(blurring.body, warned), /class="sensitive"/);

    const page = await get('/@ana', plain.token);
    const card = figureOf(page.body, warned);
    assert.doesNotMatch(card, /class="sensitive"|sensitive__reveal/, 'not blurred');
    assert.match(card, /<span class="sensitive-note">Spiders &lt;up close><\/span>/, 'the warning in words');
    assert.match(figureOf(page.body, untitled), /<span class="sensitive-note">Sensitive content<\/span>/);
  });

  it('speaks French, and gives each grid of the home page its own reveal ids', async () => {
    const page = await get('/', undefined, 'fr-FR');
    assert.equal(page.statusCode, 200);
    assert.match(figureOf(page.body, untitled), /Contenu sensible/);
    assert.match(figureOf(page.body, untitled), /Afficher la photo/);
    const ids = [...page.body.matchAll(/id="(reveal-[^"]+)"/g)].map((match) => match[1]);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique on the page');
    assert.doesNotMatch(
      page.body.match(/<meta property="og:image" content="([^"]*)"/)?.[1] ?? '',
      new RegExp(`${hexOf(warned.id)}|${hexOf(untitled.id)}`),
      'the preview image is never a photo behind a warning',
    );
  });

  it("the explorer's photo panel blurs too, and follows the viewer's setting", async () => {
    const visitor = await t.request({ method: 'GET', url: `/explorer/photos/${hexOf(warned.id)}` });
    assert.equal(visitor.statusCode, 200);
    assert.match(visitor.body, new RegExp(`id="reveal-panel-${hexOf(warned.id)}"`));
    assert.match(visitor.body, /Spiders &lt;up close>/);
    assert.equal(visitor.headers['cache-control'], 'public, max-age=60');

    const unblurred = await t.request({
      method: 'GET',
      url: `/explorer/photos/${hexOf(warned.id)}`,
      token: plain.token,
    });
    assert.doesNotMatch(unblurred.body, /sensitive__reveal/);
    assert.match(unblurred.body, /<span class="sensitive-note">Spiders &lt;up close><\/span>/);
    assert.equal(unblurred.headers['cache-control'], 'private, max-age=60', "a viewer's own panel");

    const explorer = await get('/explorer', plain.token);
    assert.match(explorer.body, /data-blur-sensitive="false"/, 'the map blurs thumbnails as the viewer chose');
    assert.match((await get('/explorer')).body, /data-blur-sensitive="true"/);
  });
});
