/**
 * Remote posts from the fediverse (docs/api.md, Federation): a public Create(Note) of a Mastodon or
 * Pixelfed actor that a local user follows is kept with its images' URLs (never fetched) and listed to
 * its followers at GET /api/users/me/following/remote-posts; a note from an actor nobody here follows,
 * a reply, a note not public or not the actor's own is ignored; Update edits it, Delete (of the URI
 * or a Tombstone) removes it; blocks and mutes hide its author; the job remote-posts prunes old ones.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken } from '../../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../../test/helpers/factories.ts';
import {
  deliver,
  drainFederationQueue,
  type FederatedTest,
  followAccepted,
  federatedPublicUrl as publicUrl,
  startFederatedTest,
} from '../../../../test/helpers/fediverse-inbox.ts';
import type { RemoteActor } from '../../../../test/support/fediverse-server.ts';

interface ListedPost {
  id: string;
  attributes: {
    uri: string;
    url: string;
    author: { handle: string; name: string | null; avatarUrl: string | null };
    content: string | null;
    summary: string | null;
    sensitive: boolean;
    publishedAt: string;
    editedAt: string | null;
    attachments: { url: string; mediaType: string | null; altText: string | null; width: number | null }[];
  };
  relationships: { author: { data: { id: string } } };
  meta?: { filtered: { title: string; matches: string[] }[] };
}

describe('federation: remote posts of followed actors', () => {
  let fed: FederatedTest;
  let carol: TestUser;
  let dave: TestUser;
  let statusNumber = 113_254_200_000_000_000n;

  before(async () => {
    fed = await startFederatedTest();
    carol = await createUser(fed.t, { username: 'carol' });
    dave = await createUser(fed.t, { username: 'dave' });
    await follow(carol, fed.ana);
    await follow(carol, fed.bea);
  });
  after(() => fed.close());

  /** The local user follows the remote actor, and its server accepts. */
  const follow = (user: TestUser, actor: RemoteActor): Promise<string> =>
    followAccepted(fed.t, fed.remote, user.id, actor);

  const minutesAgo = (minutes: number) => new Date(fed.t.clock.now().getTime() - minutes * 60_000).toISOString();
  const nextStatusId = () => {
    statusNumber += 1n;
    return statusNumber.toString();
  };

  async function send(actor: RemoteActor, fixture: string, values: Record<string, string>) {
    const response = await fed.send(actor, fixture, values);
    assert.equal(response.statusCode, 202, response.body);
  }

  /** A fixture changed before it is signed (what a server other than Mastodon or Pixelfed may send). */
  async function sendChanged(
    actor: RemoteActor,
    fixture: string,
    values: Record<string, string>,
    change: (a: any) => void,
  ) {
    const activity = JSON.parse(fed.remote.fixture(fixture, { username: actor.username, ...values }));
    change(activity);
    const request = await fed.remote.signedPost(actor, `${publicUrl}/ap/inbox`, JSON.stringify(activity));
    const response = await deliver(fed.t, request);
    assert.equal(response.statusCode, 202, response.body);
    await drainFederationQueue(fed.t);
  }

  async function postOf(actor: RemoteActor, values: Record<string, string> = {}): Promise<string> {
    const statusId = values.statusId ?? nextStatusId();
    const fixture = actor === fed.bea ? 'pixelfed-create-post' : 'mastodon-create-post';
    await send(actor, fixture, { statusId, published: minutesAgo(5), ...values });
    return actor === fed.bea ? `${actor.id.replace('/users/', '/p/')}/${statusId}` : `${actor.id}/statuses/${statusId}`;
  }

  async function listOf(user: TestUser, query = ''): Promise<ListedPost[]> {
    const response = await fed.t.request({
      method: 'GET',
      url: `/api/users/me/following/remote-posts${query}`,
      token: user.token,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data;
  }

  const urisOf = async (user: TestUser) => (await listOf(user)).map((post) => post.attributes.uri);

  it("keeps a Mastodon post with its images' URLs for a follower, and lists it with its author", async () => {
    const published = minutesAgo(30);
    const uri = await postOf(fed.ana, { published });
    const [post] = (await listOf(carol)).filter((item) => item.attributes.uri === uri);
    assert.ok(post, 'listed to the follower');
    const { origin } = fed.remote;
    const statusId = uri.split('/').at(-1);
    assert.deepEqual(post.attributes.author, {
      handle: fed.handleOf(fed.ana),
      name: 'Ana Souza',
      avatarUrl: `${origin}/system/accounts/avatars/ana.png`,
    });
    assert.equal(post.attributes.url, `${origin}/@ana/${statusId}`);
    assert.equal(post.attributes.content, 'Golden hour over the Tagus & the old town #lisbon\nA second paragraph');
    assert.equal(Date.parse(post.attributes.publishedAt), Date.parse(published));
    assert.equal(post.attributes.sensitive, false);
    assert.deepEqual(post.attributes.attachments, [
      {
        url: `${origin}/system/media_attachments/files/113/254/109/original/river.jpg`,
        mediaType: 'image/jpeg',
        altText: 'The river at sunset, a tram in front',
        width: 1920,
        height: 1280,
      },
      {
        url: `${origin}/system/media_attachments/files/113/254/110/original/map.png`,
        mediaType: 'image/png',
        altText: null,
        width: 800,
        height: 600,
      },
    ]);
    assert.equal(
      post.relationships.author.data.id,
      (await fed.t.services.areas.federation.federation?.remoteActor(fed.ana.id))?.userId,
    );
    assert.deepEqual(
      fed.remote.fetched.filter((path) => !path.startsWith('/users/')),
      [],
      'no image (nor anything but actors) is fetched',
    );
    assert.deepEqual(await urisOf(dave), [], 'not listed to a user who does not follow the author');
  });

  it('keeps a Pixelfed post with its Image attachments, and lists the newest first, a page at a time', async () => {
    const older = await postOf(fed.ana, { published: minutesAgo(20) });
    const newer = await postOf(fed.bea, { published: minutesAgo(10) });
    const list = await listOf(carol);
    assert.deepEqual(
      list.slice(0, 2).map((post) => post.attributes.uri),
      [newer, older],
    );
    const [pixelfed] = list;
    assert.equal(pixelfed?.attributes.author.handle, fed.handleOf(fed.bea));
    assert.equal(pixelfed?.attributes.author.avatarUrl, `${fed.remote.origin}/storage/avatars/default.jpg`);
    assert.equal(pixelfed?.attributes.content, 'Morning market in Hoi An #vietnam');
    assert.equal(pixelfed?.attributes.url, newer);
    assert.deepEqual(
      pixelfed?.attributes.attachments.map(({ altText, width }) => ({ altText, width })),
      [
        { altText: 'Baskets of dragon fruit on a wooden stall', width: 1080 },
        { altText: 'A boat on the Thu Bon river', width: 1080 },
      ],
    );

    const first = await fed.t.request({
      method: 'GET',
      url: '/api/users/me/following/remote-posts?limit=1',
      token: carol.token,
    });
    assert.equal(first.json.data[0].attributes.uri, newer);
    const second = await fed.t.request({ method: 'GET', url: first.json.links.next, token: carol.token });
    assert.equal(second.json.data[0].attributes.uri, older);
  });

  it('ignores a note from an actor nobody here follows, even once followed later', async () => {
    const eve = await fed.remote.addActor('mastodon-actor', 'eve');
    const uri = await postOf(eve);
    await follow(dave, eve);
    assert.ok(!(await urisOf(dave)).includes(uri));
    assert.ok(!(await urisOf(carol)).includes(uri));
  });

  it("ignores a reply, a note that is not public, and another actor's note", async () => {
    const reply = nextStatusId();
    await sendChanged(fed.ana, 'mastodon-create-post', { statusId: reply, published: minutesAgo(3) }, (activity) => {
      activity.object.inReplyTo = `${fed.remote.origin}/users/someone/statuses/1`;
    });
    const followersOnly = nextStatusId();
    await sendChanged(
      fed.ana,
      'mastodon-create-post',
      { statusId: followersOnly, published: minutesAgo(3) },
      (activity) => {
        activity.to = activity.object.to = [`${fed.ana.id}/followers`];
        activity.cc = activity.object.cc = [];
      },
    );
    // Bea sends a note said to be Ana's.
    const forged = nextStatusId();
    await sendChanged(fed.bea, 'mastodon-create-post', { statusId: forged, published: minutesAgo(3) }, (activity) => {
      activity.actor = fed.bea.id;
      activity.object.attributedTo = fed.ana.id;
    });
    const uris = await urisOf(carol);
    for (const statusId of [reply, followersOnly, forged]) {
      assert.ok(!uris.some((uri) => uri.endsWith(`/${statusId}`)), statusId);
    }
  });

  it("keeps only http(s) URLs, at most 10 attachments, and the text of a note's HTML", async () => {
    const statusId = nextStatusId();
    await sendChanged(fed.ana, 'mastodon-create-post', { statusId, published: minutesAgo(2) }, (activity) => {
      const [image] = activity.object.attachment;
      activity.object.content = '<p>Hello <script>alert(1)</script><b>world</b> &lt;3</p>';
      activity.object.url = 'javascript:alert(1)';
      activity.object.attachment = [
        { ...image, url: 'javascript:alert(1)' },
        { ...image, url: 'data:image/png;base64,AAAA' },
        ...Array.from({ length: 12 }, (_, n) => ({ ...image, url: `https://cdn.example/${n}.jpg`, name: `n${n}` })),
      ];
    });
    const [post] = (await listOf(carol)).filter((item) => item.attributes.uri.endsWith(`/${statusId}`));
    assert.ok(post);
    assert.equal(post.attributes.content, 'Hello world <3');
    assert.equal(post.attributes.url, post.attributes.uri, 'the link falls back to the URI');
    assert.deepEqual(
      post.attributes.attachments.map((attachment) => attachment.url),
      Array.from({ length: 10 }, (_, n) => `https://cdn.example/${n}.jpg`),
    );
  });

  it('updates a kept post on Update(Note) by its author, and not on anyone else’s', async () => {
    const statusId = nextStatusId();
    const published = minutesAgo(8);
    const uri = await postOf(fed.ana, { statusId, published });
    const updated = minutesAgo(1);
    await sendChanged(fed.bea, 'mastodon-update-post', { statusId, published, updated }, (activity) => {
      activity.actor = fed.bea.id;
    });
    let [post] = (await listOf(carol)).filter((item) => item.attributes.uri === uri);
    assert.equal(post?.attributes.editedAt, null);

    await send(fed.ana, 'mastodon-update-post', { statusId, published, updated });
    [post] = (await listOf(carol)).filter((item) => item.attributes.uri === uri);
    assert.equal(post?.attributes.content, 'Golden hour over the Tagus (edited)');
    assert.equal(post?.attributes.summary, 'Eye strain');
    assert.equal(post?.attributes.sensitive, true);
    assert.equal(Date.parse(post?.attributes.editedAt ?? ''), Date.parse(updated));
    assert.equal(Date.parse(post?.attributes.publishedAt ?? ''), Date.parse(published));
    assert.deepEqual(
      post?.attributes.attachments.map((attachment) => attachment.altText),
      ['The river at sunset'],
    );
  });

  it('removes a post on its Delete (Mastodon, the note; Pixelfed, a Tombstone), not on another actor’s', async () => {
    const mastodon = await postOf(fed.ana, { statusId: '113254109811046205' });
    const pixelfedId = nextStatusId();
    const pixelfed = await postOf(fed.bea, { statusId: pixelfedId });
    await sendChanged(fed.bea, 'mastodon-delete-note', {}, (activity) => {
      activity.actor = fed.bea.id;
    });
    assert.ok((await urisOf(carol)).includes(mastodon), "another actor's Delete changes nothing");

    await send(fed.ana, 'mastodon-delete-note', {});
    await send(fed.bea, 'pixelfed-delete-post', { statusId: pixelfedId });
    const uris = await urisOf(carol);
    assert.ok(!uris.includes(mastodon));
    assert.ok(!uris.includes(pixelfed));
  });

  it('hides the posts of an author the user blocks or mutes', async () => {
    const uri = await postOf(fed.ana);
    const anaId = (await fed.t.services.areas.federation.federation?.remoteActor(fed.ana.id))?.userId;
    const block = await fed.t.request({ method: 'PUT', url: `/api/users/me/blocks/${anaId}`, token: carol.token });
    assert.equal(block.statusCode, 200, block.body);
    assert.ok(!(await urisOf(carol)).includes(uri));
    await fed.t.request({ method: 'DELETE', url: `/api/users/me/blocks/${anaId}`, token: carol.token });
    await follow(carol, fed.ana); // the block ended the follow
    assert.ok((await urisOf(carol)).includes(uri));

    const mute = await fed.t.request({
      method: 'PUT',
      url: `/api/users/me/mutes/${anaId}`,
      token: carol.token,
      body: {},
    });
    assert.equal(mute.statusCode, 200, mute.body);
    assert.ok(!(await urisOf(carol)).includes(uri));
    await fed.t.request({ method: 'DELETE', url: `/api/users/me/mutes/${anaId}`, token: carol.token });
    assert.ok((await urisOf(carol)).includes(uri));
  });

  it("applies the user's keyword filters of context feeds: hide leaves a post out, warn marks it", async () => {
    const hidden = await postOf(fed.ana);
    const warned = await postOf(fed.bea);
    const filter = async (action: 'hide' | 'warn', keyword: string) => {
      const response = await fed.t.request({
        method: 'POST',
        url: '/api/users/me/filters',
        token: carol.token,
        body: { title: keyword, context: ['feeds'], action, keywords: [{ keyword }] },
      });
      assert.equal(response.statusCode, 201, response.body);
      return response.json.data.id as string;
    };
    const filters = [await filter('hide', 'tagus'), await filter('warn', 'market')];
    const list = await listOf(carol);
    assert.ok(!list.some((post) => post.attributes.uri === hidden), 'hidden by its text');
    const marked = list.find((post) => post.attributes.uri === warned);
    assert.deepEqual(
      marked?.meta?.filtered.map(({ title, matches }) => ({ title, matches })),
      [{ title: 'market', matches: ['market'] }],
    );
    for (const id of filters) {
      await fed.t.request({ method: 'DELETE', url: `/api/users/me/filters/${id}`, token: carol.token });
    }
    assert.ok((await urisOf(carol)).includes(hidden));
  });

  it('removes a kept post that an Update makes no longer public', async () => {
    const statusId = nextStatusId();
    const published = minutesAgo(4);
    const uri = await postOf(fed.ana, { statusId, published });
    await sendChanged(fed.ana, 'mastodon-update-post', { statusId, published, updated: minutesAgo(1) }, (activity) => {
      activity.to = activity.object.to = [`${fed.ana.id}/followers`];
      activity.cc = activity.object.cc = [];
    });
    assert.ok(!(await urisOf(carol)).includes(uri));
  });

  it('leaves out the posts of a banned author, and lists them again once the ban is lifted', async () => {
    const uri = await postOf(fed.ana);
    const anaId = (await fed.t.services.areas.federation.federation?.remoteActor(fed.ana.id))?.userId ?? '';
    const hex = anaId.replaceAll('-', '');
    const admin = (url: string, body?: unknown) =>
      fed.t.request({ method: 'PUT', url, token: adminToken, ...(body === undefined ? {} : { body }) });
    const ban = await admin(`/admin/users/${hex}/ban`, { reason: 'spam from afar' });
    assert.equal(ban.statusCode, 200, ban.body);
    assert.ok(!(await urisOf(carol)).includes(uri));
    const unban = await admin(`/admin/users/${hex}/unban`);
    assert.equal(unban.statusCode, 200, unban.body);
    assert.ok((await urisOf(carol)).includes(uri));
  });

  it('refuses the list without a credential', async () => {
    const response = await fed.t.request({ method: 'GET', url: '/api/users/me/following/remote-posts' });
    assert.equal(response.statusCode, 401);
  });

  it("drops a remote actor's posts when the actor deletes itself", async () => {
    const uri = await postOf(fed.bea);
    assert.ok((await urisOf(carol)).includes(uri));
    await send(fed.bea, 'mastodon-delete-actor', {});
    assert.ok(!(await urisOf(carol)).some((listed) => listed.startsWith(fed.bea.id.replace('/users/', '/p/'))));
  });

  it('prunes the posts published more than 30 days ago (the job remote-posts), and ignores notes that old', async () => {
    const old = await postOf(fed.ana, { published: minutesAgo(29 * 24 * 60) });
    const recent = await postOf(fed.ana, { published: minutesAgo(1) });
    const tooOld = await postOf(fed.ana, { published: minutesAgo(31 * 24 * 60) });
    let uris = await urisOf(carol);
    assert.ok(uris.includes(old) && uris.includes(recent));
    assert.ok(!uris.includes(tooOld), 'a note older than the age kept is not stored');

    fed.t.clock.advance(2 * 24 * 60 * 60_000);
    const outcome = await fed.t.services.platform.jobs.run('remote-posts');
    assert.ok(outcome.ran);
    assert.ok(outcome.ran && (outcome.report.pruned as number) >= 1);
    uris = await urisOf(carol);
    assert.ok(!uris.includes(old), 'pruned');
    assert.ok(uris.includes(recent), 'kept');
  });
});
