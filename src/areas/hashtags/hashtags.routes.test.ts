import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { createUser, type TestUser, updateUserRow } from '../../../test/helpers/factories.ts';
import { createMediaRow, type NewMediaRow, updateMediaRow } from '../../../test/helpers/media-factory.ts';

const base = '/api/media/hashtags';

describe('hashtags', () => {
  let t: TestApp;
  let owner: TestUser;

  const get = (path: string) => t.request({ method: 'GET', url: `${base}/${path}` });
  const flush = async () => {
    const res = await t.request({ method: 'POST', url: '/admin/jobs/flush/hashtags', token: adminToken });
    assert.equal(res.statusCode, 200, res.body);
    return res.json.data.attributes.report;
  };
  /** `count` listed posts of `owner` carrying `hashtags`. */
  const posts = async (count: number, hashtags: string[], overrides: Partial<NewMediaRow> = {}, by = owner) => {
    const rows = [];
    for (let index = 0; index < count; index += 1)
      rows.push(await createMediaRow(t, by.id, { hashtags, ...overrides }));
    return rows;
  };
  const names = (res: { json: any }) => res.json.data.map((item: any) => item.id);
  const badParameter = (res: { statusCode: number; json: any }, parameter: string) => {
    assert.equal(res.statusCode, 400, JSON.stringify(res.json));
    assert.equal(res.json.errors[0].code, 'invalidQueryParameter');
    assert.equal(res.json.errors[0].source.parameter, parameter);
  };

  before(async () => {
    t = await createTestApp();
    owner = await createUser(t);
  });
  after(() => t.close());

  describe('autocomplete', () => {
    it('lists tags starting with q first, then similar ones, each group by uses, as hashtags resources', async () => {
      await posts(3, ['paris']);
      await posts(5, ['parisnight']);
      await posts(10, ['pariz']);
      await posts(2, ['london']);
      const report = await flush();
      assert.ok(report.totals.written >= 4);

      const res = await get('autocomplete?q=paris');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/vnd.api+json');
      assert.deepEqual(res.json.data, [
        { type: 'hashtags', id: 'parisnight', attributes: { name: 'parisnight', uses: 5, match: 'prefix' } },
        { type: 'hashtags', id: 'paris', attributes: { name: 'paris', uses: 3, match: 'prefix' } },
        { type: 'hashtags', id: 'pariz', attributes: { name: 'pariz', uses: 10, match: 'similar' } },
      ]);
      assert.equal(res.json.meta.limit, 10);
      assert.equal(res.json.links.next, null);
    });

    it('pages with limit and cursors through the same order', async () => {
      const first = await get('autocomplete?q=paris&limit=2');
      assert.deepEqual(names(first), ['parisnight', 'paris']);
      assert.equal(first.json.meta.limit, 2);
      const next = await t.request({
        method: 'GET',
        url: new URL(first.json.links.next).pathname + new URL(first.json.links.next).search,
      });
      assert.deepEqual(names(next), ['pariz']);
      assert.equal(next.json.links.next, null);
      const prev = await t.request({
        method: 'GET',
        url: new URL(next.json.links.prev).pathname + new URL(next.json.links.prev).search,
      });
      assert.deepEqual(names(prev), ['parisnight', 'paris']);
    });

    it('pages one by one from pages the prefixes fill into the similar tags, missing none', async () => {
      const seen: string[] = [];
      let url: string | null = `${base}/autocomplete?q=paris&limit=1`;
      while (url !== null) {
        const page: { json: any } = await t.request({ method: 'GET', url });
        seen.push(...names(page));
        const next: string | null = page.json.links.next;
        url = next === null ? null : new URL(next).pathname + new URL(next).search;
      }
      assert.deepEqual(seen, ['parisnight', 'paris', 'pariz']);
    });

    it("ignores a leading '#', case and accents in q", async () => {
      await posts(2, ['café']);
      await posts(1, ['cafeteria']);
      await posts(1, ['ärger']);
      await flush();
      for (const q of ['cafe', '%23CAFE', 'Caf%C3%A9', '%20%23caf%C3%A8%20']) {
        const res = await get(`autocomplete?q=${q}`);
        assert.equal(res.statusCode, 200);
        assert.deepEqual(names(res), ['café', 'cafeteria'], q);
        assert.deepEqual(
          res.json.data.map((item: any) => item.attributes.match),
          ['prefix', 'prefix'],
        );
      }
      assert.deepEqual(names(await get('autocomplete?q=ARG')), ['ärger']);
    });

    it('takes %, _ and \\ literally, never as LIKE wildcards', async () => {
      await posts(1, ['a_b']);
      await posts(3, ['axb']);
      await flush();
      const underscore = await get('autocomplete?q=a_');
      assert.equal(underscore.statusCode, 200);
      assert.deepEqual(
        underscore.json.data.filter((item: any) => item.attributes.match === 'prefix').map((item: any) => item.id),
        ['a_b'],
      );
      assert.ok(!names(underscore).includes('axb'));
      const percent = await get('autocomplete?q=ax%25');
      assert.equal(percent.statusCode, 200);
      assert.ok(!percent.json.data.some((item: any) => item.attributes.match === 'prefix'));
      for (const q of ['%25', '%5C', '%25%25', '_%25']) {
        const res = await get(`autocomplete?q=${q}`);
        assert.equal(res.statusCode, 200, q);
        assert.ok(!names(res).includes('axb'), q);
        assert.ok(!names(res).includes('paris'), q);
      }
    });

    it('refuses a missing, empty or too long q and a limit out of range', async () => {
      badParameter(await get('autocomplete'), 'q');
      badParameter(await get('autocomplete?q='), 'q');
      badParameter(await get('autocomplete?q=%23'), 'q');
      badParameter(await get('autocomplete?q=%20%20'), 'q');
      badParameter(await get(`autocomplete?q=${'a'.repeat(10_000)}`), 'q');
      badParameter(await get(`autocomplete?q=${'a'.repeat(65)}`), 'q');
      badParameter(await get('autocomplete?q=paris&limit=0'), 'limit');
      badParameter(await get('autocomplete?q=paris&limit=1000000000'), 'limit');
      badParameter(await get('autocomplete?q=paris&limit=51'), 'limit');
      const cursor = await get('autocomplete?q=paris&cursor=nonsense');
      assert.equal(cursor.statusCode, 400);
      assert.equal(cursor.json.errors[0].code, 'invalidCursor');
      assert.equal((await get(`autocomplete?q=${'a'.repeat(64)}`)).statusCode, 200);
    });
  });

  describe('related', () => {
    it('counts co-occurrences on the same listed posts, most shared first, without the tag itself', async () => {
      await posts(1, ['beach', 'sun', 'surf']);
      await posts(1, ['beach', 'sun']);
      await posts(1, ['beach', 'sand']);
      await posts(1, ['sun', 'surf']);
      await flush();
      for (const tag of ['beach', '%23Beach', '%23BEACH']) {
        const res = await get(`related?tag=${tag}`);
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json.data, [
          { type: 'hashtags', id: 'sun', attributes: { name: 'sun', cooccurrences: 2 } },
          { type: 'hashtags', id: 'surf', attributes: { name: 'surf', cooccurrences: 1 } },
          { type: 'hashtags', id: 'sand', attributes: { name: 'sand', cooccurrences: 1 } },
        ]);
      }
      const sun = await get('related?tag=sun&limit=1');
      assert.deepEqual(names(sun), ['surf']);
      assert.equal(sun.json.data[0].attributes.cooccurrences, 2);
      assert.notEqual(sun.json.links.next, null);
    });

    it('answers an empty list for an unknown tag and refuses a missing, empty or long one', async () => {
      const unknown = await get('related?tag=neverused');
      assert.equal(unknown.statusCode, 200);
      assert.deepEqual(unknown.json.data, []);
      badParameter(await get('related'), 'tag');
      badParameter(await get('related?tag='), 'tag');
      badParameter(await get(`related?tag=${'x'.repeat(10_000)}`), 'tag');
      badParameter(await get('related?tag=beach&limit=0'), 'limit');
    });
  });

  describe('what counts', () => {
    it('counts only published, unflagged posts of owners in good standing, as of the last job run', async () => {
      const banned = await createUser(t);
      const [kept, other] = await posts(2, ['lagoon', 'reef']);
      const [hidden] = await posts(1, ['lagoon', 'reef']);
      await posts(1, ['lagoon', 'reef'], { published: false });
      await posts(1, ['lagoon', 'reef'], { flag: 1 });
      await posts(1, ['lagoon', 'reef'], { kind: 'avatar' });
      await posts(1, ['lagoon', 'reef'], {}, banned);
      const uses = async () => (await get('autocomplete?q=lagoon')).json.data[0]?.attributes.uses;
      const shared = async () => (await get('related?tag=lagoon')).json.data[0]?.attributes.cooccurrences;

      assert.equal(await uses(), undefined, 'nothing before the job runs');
      await flush();
      assert.equal(await uses(), 4);
      assert.equal(await shared(), 4);

      await updateMediaRow(t, hidden!.id, { flag: 2 });
      await updateUserRow(t, banned.id, { bannedAt: t.clock.now() });
      assert.equal(await uses(), 4, 'counts are those of the last run');
      await flush();
      assert.equal(await uses(), 2);
      assert.equal(await shared(), 2);

      await updateMediaRow(t, kept!.id, { hashtags: ['reef'] });
      const report = await flush();
      assert.equal(await uses(), 1);
      assert.equal(await shared(), 1);
      assert.ok(report.dailyUses.written >= 1);

      const again = await flush();
      assert.deepEqual(again, {
        dailyUses: { removed: 0, written: 0 },
        totals: { removed: 0, written: 0 },
        pairs: { removed: 0, written: 0 },
        countedMedia: { removed: 0, written: 0 },
      });

      await updateMediaRow(t, other!.id, { published: false });
      await flush();
      assert.deepEqual(names(await get('autocomplete?q=lagoon')), []);
      assert.deepEqual(names(await get('related?tag=lagoon')), []);
      assert.equal((await get('autocomplete?q=reef')).json.data[0].attributes.uses, 1);
    });
  });

  describe('media events', () => {
    const admin = (method: 'PUT', url: string, body: unknown) => t.request({ method, url, token: adminToken, body });
    const uses = async (q: string) => (await get(`autocomplete?q=${q}`)).json.data[0]?.attributes.uses;

    it('moves the counts at once when a post gets tags, is hidden, unpublished, shown again or deleted', async () => {
      const [first, second] = await posts(2, []);
      const describe = (id: string, body: unknown) =>
        t.request({ method: 'PUT', url: `/api/users/me/media/${id}/description`, token: owner.token, body });
      assert.equal(
        (await describe(first!.id, { description: 'Green lights over the #Fjord #aurora' })).statusCode,
        200,
      );
      assert.equal(await uses('fjord'), 1, 'no job run needed');
      assert.deepEqual((await get('related?tag=fjord')).json.data[0].attributes, { name: 'aurora', cooccurrences: 1 });
      assert.equal((await describe(second!.id, { description: 'Still water', hashtags: ['#fjord'] })).statusCode, 200);
      assert.equal(await uses('fjord'), 2);

      const hex = (id: string) => id.replaceAll('-', '');
      assert.equal((await admin('PUT', `/admin/media/${hex(first!.id)}/flag`, { flag: 2 })).statusCode, 200);
      assert.equal(await uses('fjord'), 1);
      assert.deepEqual((await get('related?tag=fjord')).json.data, []);
      assert.equal(
        (await admin('PUT', `/admin/media/${hex(second!.id)}/published`, { published: false })).statusCode,
        200,
      );
      assert.deepEqual(names(await get('autocomplete?q=fjord')), []);
      assert.equal((await admin('PUT', `/admin/media/${hex(first!.id)}/flag`, { flag: 0 })).statusCode, 200);
      assert.equal(await uses('fjord'), 1);
      assert.equal(await uses('aurora'), 1);

      const deleted = await t.request({
        method: 'DELETE',
        url: `/api/users/me/media/${first!.id}`,
        token: owner.token,
      });
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual(names(await get('autocomplete?q=fjord')), []);
      assert.deepEqual(names(await get('autocomplete?q=aurora')), []);

      // The events left the counts exactly as a rebuild makes them.
      assert.deepEqual(await flush(), {
        dailyUses: { removed: 0, written: 0 },
        totals: { removed: 0, written: 0 },
        pairs: { removed: 0, written: 0 },
        countedMedia: { removed: 0, written: 0 },
      });
    });
  });

  describe("an owner's ban", () => {
    it("takes the owner's posts out of the counts at once and puts them back when the ban is lifted", async () => {
      const banned = await createUser(t);
      await posts(2, ['tundra', 'moss']);
      await posts(3, ['tundra', 'moss'], {}, banned);
      await flush();
      const uses = async () => (await get('autocomplete?q=tundra')).json.data[0]?.attributes.uses;
      const shared = async () => (await get('related?tag=tundra')).json.data[0]?.attributes.cooccurrences;
      assert.equal(await uses(), 5);
      const admin = (action: 'ban' | 'unban', body?: unknown) =>
        t.request({ method: 'PUT', url: `/admin/users/${banned.hex}/${action}`, token: adminToken, body });

      assert.equal((await admin('ban', { reason: 'spam' })).statusCode, 200);
      assert.equal(await uses(), 2, 'no job run needed');
      assert.equal(await shared(), 2);
      assert.equal((await admin('unban')).statusCode, 200);
      assert.equal(await uses(), 5);
      assert.equal(await shared(), 5);
      assert.deepEqual(await flush(), {
        dailyUses: { removed: 0, written: 0 },
        totals: { removed: 0, written: 0 },
        pairs: { removed: 0, written: 0 },
        countedMedia: { removed: 0, written: 0 },
      });
    });
  });

  describe('deletions', () => {
    it('two posts of one tag deleted together leave it uncounted, as a rebuild would', async () => {
      const both = await posts(2, ['glacier', 'icefall']);
      await flush();
      assert.equal((await get('autocomplete?q=glacier')).json.data[0]?.attributes.uses, 2);
      const deletions = await Promise.all(
        both.map((media) =>
          t.request({ method: 'DELETE', url: `/api/users/me/media/${media.id}`, token: owner.token }),
        ),
      );
      assert.deepEqual(
        deletions.map((response) => response.statusCode),
        [204, 204],
      );
      assert.deepEqual(names(await get('autocomplete?q=glacier')), []);
      assert.deepEqual((await get('related?tag=icefall')).json.data, []);
      const report = await flush();
      assert.deepEqual(report.totals, { removed: 0, written: 0 });
      assert.deepEqual(report.pairs, { removed: 0, written: 0 });
    });
  });

  // Last: it moves the clock, and the other tests' posts are all before its windows.
  describe('trending', () => {
    const at = (iso: string) => ({ createdAt: new Date(iso) });

    it('ranks growth in the window against the window before, smoothed, with both counts', async () => {
      t.clock.set('2026-06-20T12:00:00.000Z');
      // Window of 7 days: 06-14 to 06-20 (today); before it: 06-07 to 06-13.
      await posts(1, ['rising'], at('2026-06-13T23:59:59.000Z'));
      await posts(6, ['rising'], at('2026-06-14T00:00:00.000Z'));
      await posts(4, ['boom'], at('2026-06-20T11:00:00.000Z'));
      await posts(1, ['newbie'], at('2026-06-18T10:00:00.000Z'));
      await posts(3, ['steady'], at('2026-06-10T10:00:00.000Z'));
      await posts(3, ['steady'], at('2026-06-16T10:00:00.000Z'));
      await posts(5, ['fading'], at('2026-06-08T10:00:00.000Z'));
      await posts(1, ['fading'], at('2026-06-15T10:00:00.000Z'));
      await posts(20, ['ancient'], at('2026-05-01T10:00:00.000Z'));
      await flush();

      const res = await get('trending');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json.data, [
        { type: 'hashtags', id: 'rising', attributes: { name: 'rising', uses: 6, previousUses: 1, score: 11 / 6 } },
        { type: 'hashtags', id: 'boom', attributes: { name: 'boom', uses: 4, previousUses: 0, score: 9 / 5 } },
        { type: 'hashtags', id: 'newbie', attributes: { name: 'newbie', uses: 1, previousUses: 0, score: 6 / 5 } },
      ]);
      assert.deepEqual(names(await get('trending?windowDays=7&limit=2')), ['rising', 'boom']);
      const second = await get('trending?limit=2');
      const next = new URL(second.json.links.next);
      assert.deepEqual(names(await t.request({ method: 'GET', url: next.pathname + next.search })), ['newbie']);
    });

    it('moves with the clock and the window size', async () => {
      t.clock.set('2026-06-27T08:00:00.000Z');
      // 06-21 to 06-27 is empty: nothing grows.
      assert.deepEqual((await get('trending')).json.data, []);
      // A run of the job shows new posts at once (the minute's cached page is dropped).
      await posts(2, ['fresh'], at('2026-06-27T07:00:00.000Z'));
      assert.deepEqual((await get('trending')).json.data, []);
      await flush();
      assert.deepEqual(
        (await get('trending')).json.data.map((item: any) => [
          item.id,
          item.attributes.uses,
          item.attributes.previousUses,
        ]),
        [['fresh', 2, 0]],
      );
      // 14 days: 06-14 to 06-27 against 05-31 to 06-13.
      const fortnight = await get('trending?windowDays=14');
      assert.deepEqual(
        fortnight.json.data.map((item: any) => [item.id, item.attributes.uses, item.attributes.previousUses]),
        [
          ['rising', 6, 1],
          ['boom', 4, 0],
          ['fresh', 2, 0],
          ['newbie', 1, 0],
        ],
      );
      // 60 days reach the ancient posts of 05-01 (in the window 04-29 to 06-27).
      const season = await get('trending?windowDays=60');
      assert.equal(season.json.data[0].id, 'ancient');
      assert.equal(season.json.data[0].attributes.uses, 20);
    });

    it('refuses windowDays and limit out of range', async () => {
      for (const value of ['0', '91', '1000000000000', '-1', '1.5', 'abc']) {
        badParameter(await get(`trending?windowDays=${value}`), 'windowDays');
      }
      badParameter(await get('trending?limit=0'), 'limit');
      badParameter(await get('trending?limit=1000000000'), 'limit');
      assert.equal((await get('trending?windowDays=90')).statusCode, 200);
      assert.equal((await get('trending?windowDays=1')).statusCode, 200);
    });
  });
});
