import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createTestApp, type TestApp } from '../../../test/helpers/app.ts';
import { cliTestContext } from '../../../test/helpers/cli.ts';
import { commands } from '../registry.ts';
import { demoCitySpecs } from './cities.ts';
import { demoPassword } from './people.ts';
import { seedProgressLine } from './progress.ts';

const seedDemo = commands.find((command) => command.name === 'seed:demo')!;

describe('seed:demo', () => {
  let t: TestApp;
  let report: Record<string, any>;
  const shown: string[] = [];

  before(async () => {
    t = await createTestApp();
    const { context, output } = cliTestContext(t);
    await seedDemo.run({ ...context, progress: (line) => shown.push(line) }, ['--json', '--no-variants']);
    report = JSON.parse(output[0]!);
    // A second run is refused: the database has users now.
    await assert.rejects(seedDemo.run(context, []), /has 30 users already.*--force/);
    console.log(
      `seed:demo took ${report.seconds} s (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}): ` +
        `${report.follows} follows, ${report.likes} likes, ${report.comments} comments`,
    );
  });
  after(() => t.close());

  it('draws a progress bar that ends full', () => {
    assert.ok(shown.length > 10, 'redrawn as the work goes');
    assert.equal(shown.at(-1), seedProgressLine(1, 'derived data', 3, 3));
    assert.match(shown[0]!, /^seed:demo \[-{30}\] 0% cities 0\/1$/);
  });

  it('counts what it made as the admin statistics do', async () => {
    const stats = await t.request({ method: 'GET', url: '/admin/stats', token: adminToken });
    assert.equal(stats.statusCode, 200);
    const counts = stats.json.data.attributes.counts;
    assert.equal(counts.users.total, 30);
    assert.equal(counts.media.total, 300);
    assert.equal(counts.follows.total, report.follows);
    assert.equal(counts.reactions.total, report.likes);
    assert.equal(counts.comments.total, report.comments);
    // The draws are seeded: the same world on every run, on either engine, at any hour.
    assert.deepEqual([report.follows, report.likes, report.comments], [215, 870, 276]);
    assert.ok(counts.establishments.total >= 30 && counts.offers.total >= 40, 'the demo catalogue is in');
    assert.ok(counts.notifications.total > report.follows, 'follows, likes and comments were announced');
  });

  it('makes travellers who can sign in, with avatars, experience and notifications', async () => {
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'amelie.voyage@demo.example', password: demoPassword },
    });
    assert.equal(login.statusCode, 200);
    const token = login.json.data.attributes.accessToken ?? login.json.meta?.accessToken;
    assert.ok(token, JSON.stringify(login.json));
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token });
    const attributes = me.json.data.attributes;
    assert.equal(attributes.username, 'amelie.voyage');
    assert.equal(attributes.nickname, 'Amélie Durand');
    assert.ok(attributes.experience > 0 && attributes.level >= 1, `experience ${attributes.experience}`);
    const avatar = JSON.stringify(me.json).match(/"avatar[^"]*":\s*(\{[^}]*\}|"[^"]*")/);
    assert.ok(avatar, 'the profile has an avatar');
    const notifications = await t.request({ method: 'GET', url: '/api/users/me/notifications', token });
    assert.equal(notifications.statusCode, 200);
    assert.ok(notifications.json.data.length > 0);
  });

  it('places the photos in the 40 cities, with descriptions and hashtags, on the map', async () => {
    const inBounds = await t.request({
      method: 'GET',
      url: '/api/media/in-bounds?south=-80&west=-180&north=80&east=180&zoom=2',
    });
    assert.equal(inBounds.statusCode, 200);
    assert.equal(inBounds.json.meta.mode, 'clusters');
    const total = inBounds.json.data.reduce(
      (sum: number, cluster: { attributes: { count: number } }) => sum + cluster.attributes.count,
      0,
    );
    assert.equal(total, 300);

    const lisbon = await t.request({
      method: 'GET',
      url: '/api/media/in-bounds?south=38.6&west=-9.3&north=38.8&east=-9.0&zoom=14&limit=100',
    });
    assert.equal(lisbon.statusCode, 200);
    assert.equal(lisbon.json.meta.mode, 'media');
    assert.ok(lisbon.json.data.length >= 1, 'photos in Lisbon');
    const photo = lisbon.json.data[0].attributes;
    assert.match(photo.description, /#\p{L}+/u);
    assert.ok(photo.hashtags.length >= 3);
    assert.equal(photo.place.countryCode, 'PT');
    assert.equal(demoCitySpecs.length, 40);
  });
});
