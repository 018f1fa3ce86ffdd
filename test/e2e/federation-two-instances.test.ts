/**
 * Two instances of the service federating over loopback (issue 36's tests; docs/api.md, Federation):
 * each a test app with its own database (PGlite data directory or PostgreSQL database, so the file
 * runs on both engines), FEDERATION=on with FEDERATION_ALLOW_PRIVATE_ADDRESS=on, listening on its own
 * loopback address (A on 127.0.0.2, B on 127.0.0.1: two domains, so that one can block the other) with
 * that address as PUBLIC_URL. Everything between them is the real protocol: WebFinger, actor and key
 * fetches, HTTP-signed deliveries through each one's queue (the job federation-queue, run here by the
 * test as the job runner would). A user on A follows a user on B by handle, B accepts, each side sees
 * the other with its handle; then the reverse, and the follow is mutual. Then bob (on B) publishes a
 * post with a GPS-tagged photo: once it has settled, alice (on A) sees it, likes it, unlikes it,
 * replies to it, sees bob's edit and deletion, and nothing that passed between the two, nor the image,
 * holds the photo's position. Last, B rejects A's domain: alice's like and follow are refused at B's
 * inbox (403), and nothing of bob's is delivered to A any more.
 *
 * `settle()` runs both queues until nothing is left to deliver; `publishDue()` lets B's post changes
 * settle (its clock past the 2-minute wait of docs/api.md) and sends them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { settleMs } from '../../src/areas/federation/outbound/post-sync.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { adminToken, createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { drainFederationQueue, queued } from '../helpers/fediverse-inbox.ts';
import { upload } from '../helpers/media-uploads.ts';
import { freePort } from '../helpers/processes.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { makeJpeg } from '../support/test-images.ts';

interface Instance {
  t: TestApp;
  url: string;
  host: string;
}

async function startInstance(address: string): Promise<Instance> {
  const port = await freePort();
  const url = `http://${address}:${port}`;
  const t = await createTestApp({
    env: { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESS: 'on', PUBLIC_URL: url },
    // Real time: the instances' signatures carry the time they are made, checked by the other side.
    clock: new ManualClock(new Date().toISOString()),
  });
  await t.app.listen({ port, host: address });
  return { t, url, host: new URL(url).host };
}

/** One HTTP exchange between the instances (or of the test with one of them), as it went over the wire. */
interface Exchange {
  method: string;
  url: string;
  /** The answer's status; 0 when the request failed (no server, TLS tried on plain http). */
  status: number;
  sent: string;
  served: string;
}

/**
 * Both instances run in this process, and everything they ask of each other (WebFinger, actor, key and
 * note fetches, every signed delivery) goes through the global `fetch` (Fedify's and the lookup's),
 * read at each call: so wrapping it records every request body one instance sent and every body the
 * other served, exactly as they crossed, with nothing to keep in step with the app's code.
 */
function recordExchanges(): { exchanges: Exchange[]; restore(): void } {
  const exchanges: Exchange[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const exchange: Exchange = {
      method: request.method,
      url: request.url,
      status: 0,
      sent: await request.clone().text(),
      served: '',
    };
    exchanges.push(exchange);
    const response = await realFetch(request);
    exchange.status = response.status;
    exchange.served = Buffer.from(await response.clone().arrayBuffer()).toString('latin1');
    return response;
  };
  return {
    exchanges,
    restore: () => {
      globalThis.fetch = realFetch;
    },
  };
}

/** Where bob's photo was taken (in Marseille, far enough from the city's own coordinates to tell them apart). */
const gps = { latitude: 43.2712, longitude: 5.4021 };
/** Its first decimals, as any text would write them (the stored value may differ in the last ones). */
const positionTexts = ['43.271', '5.402'];

describe('federation between two instances of the service', () => {
  let a: Instance;
  let b: Instance;
  let alice: TestUser; // on A
  let bob: TestUser; // on B

  const recorder = recordExchanges();
  const { exchanges } = recorder;
  /** What A's API answered alice about bob's post (its list of remote posts). */
  const servedToAlice: string[] = [];

  before(async () => {
    a = await startInstance('127.0.0.2');
    b = await startInstance('127.0.0.1');
    alice = await createUser(a.t, { username: 'alice' });
    bob = await createUser(b.t, { username: 'bob' });
  });
  after(async () => {
    recorder.restore();
    await a?.t.close();
    await b?.t.close();
  });

  /** Runs both instances' queues until neither has anything left (a delivery may queue the answer's). */
  async function settle(): Promise<void> {
    await waitFor(
      'both federation queues empty',
      async () => {
        await drainFederationQueue(a.t);
        await drainFederationQueue(b.t);
        return (await queued(a.t)) === 0 && (await queued(b.t)) === 0;
      },
      30_000,
    );
  }

  async function listOf(instance: Instance, user: TestUser, url: string) {
    const response = await instance.t.request({ method: 'GET', url, token: user.token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data as { id: string; attributes: Record<string, any> }[];
  }

  /** `follower` on `from` follows `followee` on `to` by handle; answers the shadow's id on `from`. */
  async function followAcross(from: Instance, follower: TestUser, to: Instance, followee: string): Promise<string> {
    const response = await from.t.request({
      method: 'POST',
      url: '/api/users/me/following/remote',
      token: follower.token,
      payload: { handle: `@${followee}@${to.host}` },
    });
    assert.equal(response.statusCode, 202, response.body);
    assert.equal(response.json.data.attributes.username, `${followee}@${to.host}`);
    assert.equal(response.json.data.attributes.remoteFollow.state, 'pending');
    await settle();
    return response.json.data.id;
  }

  const instances = { shadowOfBobOnA: '', shadowOfAliceOnB: '' };

  it('A user on A follows a user on B by handle; B accepts; each sees the other with its handle', async () => {
    instances.shadowOfBobOnA = await followAcross(a, alice, b, 'bob');

    const [remoteFollow] = await listOf(a, alice, '/api/users/me/following/remote');
    assert.equal(remoteFollow?.attributes.remoteFollow.state, 'accepted', 'accepted by B');
    assert.equal(remoteFollow?.attributes.remoteFollow.actorUrl, `${b.url}/ap/users/${bob.id}`);
    const following = await listOf(a, alice, '/api/users/me/following');
    assert.deepEqual(
      following.map((user) => user.attributes.username),
      [`bob@${b.host}`],
    );

    const followers = await listOf(b, bob, '/api/users/me/followers');
    assert.deepEqual(
      followers.map((user) => user.attributes.username),
      [`alice@${a.host}`],
    );
    instances.shadowOfAliceOnB = followers[0]?.id ?? '';
    const notifications = await listOf(b, bob, '/api/users/me/notifications');
    const received = notifications.find((n) => n.attributes.type === 'follow.received');
    assert.equal(received?.attributes.body, `@alice@${a.host} started following you.`);
    assert.deepEqual(await b.t.services.areas.follows.follows.counts(bob.id), { followers: 1, following: 0 });
  });

  it('the reverse: the user on B follows back, and the follow is mutual on both sides', async () => {
    const shadowOfAlice = await followAcross(b, bob, a, 'alice');
    assert.equal(shadowOfAlice, instances.shadowOfAliceOnB, 'the same shadow as the follower');

    const onB = await b.t.request({
      method: 'GET',
      url: `/api/users/${shadowOfAlice}/relationship`,
      token: bob.token,
    });
    assert.equal(onB.json.data.attributes.following, true);
    assert.equal(onB.json.data.attributes.followedBy, true);
    const onA = await a.t.request({
      method: 'GET',
      url: `/api/users/${instances.shadowOfBobOnA}/relationship`,
      token: alice.token,
    });
    assert.equal(onA.json.data.attributes.following, true);
    assert.equal(onA.json.data.attributes.followedBy, true);
    assert.deepEqual(
      (await listOf(a, alice, '/api/users/me/followers')).map((user) => user.attributes.username),
      [`bob@${b.host}`],
    );
  });

  it('unfollowing on A sends Undo(Follow): B no longer counts the follower', async () => {
    const response = await a.t.request({
      method: 'DELETE',
      url: `/api/users/me/following/${instances.shadowOfBobOnA}`,
      token: alice.token,
    });
    assert.equal(response.statusCode, 204, response.body);
    await settle();
    assert.deepEqual(await listOf(b, bob, '/api/users/me/followers'), []);
    assert.deepEqual(await b.t.services.areas.follows.follows.counts(bob.id), { followers: 0, following: 1 });
  });

  /** B's post changes settle (both clocks move on together, as time would), are sent, and delivered. */
  async function publishDue(): Promise<void> {
    a.t.clock.advance(settleMs + 1000);
    b.t.clock.advance(settleMs + 1000);
    await b.t.services.platform.jobs.run('federation-queue');
    await settle();
  }

  /** Bob's post as alice's list of remote posts on A shows it, or undefined. */
  async function keptOnA(postId: string) {
    const posts = await listOf(a, alice, '/api/users/me/following/remote-posts');
    servedToAlice.push(JSON.stringify(posts));
    return posts.find((post) => post.attributes.uri === `${b.url}/ap/posts/${postId}`);
  }

  /** Bob uploads a photo taken in Marseille (GPS in its EXIF), a post of its own: its id on B. */
  async function bobPosts(caption: string): Promise<string> {
    const photo = await makeJpeg({ width: 1200, height: 900, gps });
    const response = await upload(b.t, '/api/users/me/media', bob.token, photo, { description: caption });
    assert.equal(response.statusCode, 201, response.body);
    return response.json.data.id;
  }

  const likersOnB = async (postId: string) =>
    (await listOf(b, bob, `/api/media/${postId}/likes`)).map((user) => user.attributes.username);

  async function likesCountOnB(postId: string): Promise<number> {
    const response = await b.t.request({ method: 'GET', url: `/api/posts/${postId}`, token: bob.token });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data.attributes.likesCount;
  }

  const like = (method: 'PUT' | 'DELETE', remotePostId: string) =>
    a.t.request({ method, url: `/api/users/me/remote-posts/${remotePostId}/like`, token: alice.token });

  const post = { onB: '', onA: '' };

  it("bob's post with a GPS-tagged photo reaches alice, who follows him, once it has settled: its image on B", async () => {
    await followAcross(a, alice, b, 'bob');
    post.onB = await bobPosts('Old port at dawn #Marseille');
    await settle();
    assert.equal(await keptOnA(post.onB), undefined, 'nothing before the post has settled');

    await publishDue();
    const kept = await keptOnA(post.onB);
    assert.ok(kept, "bob's post is in alice's list");
    post.onA = kept.id;
    assert.equal(kept.attributes.author.handle, `bob@${b.host}`);
    assert.equal(kept.attributes.content, 'Old port at dawn #Marseille');
    const [image, ...others] = kept.attributes.attachments as { url: string; mediaType: string }[];
    assert.deepEqual(others, []);
    assert.ok(image);
    assert.equal(image.mediaType, 'image/webp');
    assert.equal(new URL(image.url).origin, b.url, 'the image stays on B');

    // A client loads the image from B, as alice's app would: it carries no position.
    const loaded = await fetch(image.url);
    assert.equal(loaded.status, 200);
    assert.equal(loaded.headers.get('content-type'), 'image/webp');
    const metadata = await sharp(Buffer.from(await loaded.arrayBuffer())).metadata();
    assert.equal(metadata.exif, undefined, 'no EXIF at all (so no GPS) in the image served');
    // As a remote server following the Note's link does: B serves the Note.
    const note = await fetch(`${b.url}/ap/posts/${post.onB}`, { headers: { accept: 'application/activity+json' } });
    assert.equal(note.status, 200);
    assert.equal((await note.json()).attributedTo, `${b.url}/ap/users/${bob.id}`);
  });

  it('alice likes it on A: B counts the like and lists alice by her handle; unliking takes it back', async () => {
    assert.equal((await like('PUT', post.onA)).statusCode, 204);
    await settle();
    assert.equal(await likesCountOnB(post.onB), 1);
    assert.deepEqual(await likersOnB(post.onB), [`alice@${a.host}`]);
    assert.equal((await keptOnA(post.onB))?.attributes.likedByMe, true);

    assert.equal((await like('DELETE', post.onA)).statusCode, 204);
    await settle();
    assert.equal(await likesCountOnB(post.onB), 0);
    assert.deepEqual(await likersOnB(post.onB), []);
    assert.equal((await keptOnA(post.onB))?.attributes.likedByMe, false);
  });

  it("alice replies on A: the reply is a comment on bob's post on B, with alice's handle", async () => {
    const replied = await a.t.request({
      method: 'POST',
      url: `/api/users/me/remote-posts/${post.onA}/replies`,
      token: alice.token,
      body: { text: 'What a light! Which quay is this?' },
    });
    assert.equal(replied.statusCode, 201, replied.body);
    await settle();

    const response = await b.t.request({ method: 'GET', url: `/api/media/${post.onB}/comments`, token: bob.token });
    assert.equal(response.statusCode, 200, response.body);
    const authors = new Map<string, string>(
      (response.json.included ?? []).map((user: { id: string; attributes: { username: string } }) => [
        user.id,
        user.attributes.username,
      ]),
    );
    assert.deepEqual(
      response.json.data.map((comment: { attributes: { body: string }; relationships: any }) => [
        authors.get(comment.relationships.author.data?.id),
        comment.attributes.body,
      ]),
      [[`alice@${a.host}`, 'What a light! Which quay is this?']],
    );
    const kept = await keptOnA(post.onB);
    assert.deepEqual(
      kept?.attributes.myReplies.map((reply: { text: string }) => reply.text),
      ['What a light! Which quay is this?'],
    );
  });

  it("bob edits the caption: A's kept post shows the new text once settled; bob deletes it: it leaves A's list", async () => {
    const edited = await b.t.request({
      method: 'PATCH',
      url: `/api/users/me/posts/${post.onB}`,
      token: bob.token,
      body: { caption: 'Old port at dawn, from the Fort Saint-Jean #Marseille' },
    });
    assert.equal(edited.statusCode, 200, edited.body);
    await publishDue();
    const kept = await keptOnA(post.onB);
    assert.equal(kept?.attributes.content, 'Old port at dawn, from the Fort Saint-Jean #Marseille');
    assert.notEqual(kept?.attributes.editedAt, null);

    const deleted = await b.t.request({ method: 'DELETE', url: `/api/users/me/posts/${post.onB}`, token: bob.token });
    assert.equal(deleted.statusCode, 204, deleted.body);
    // A post leaving the public is sent at once: no wait.
    await b.t.services.platform.jobs.run('federation-queue');
    await settle();
    assert.equal(await keptOnA(post.onB), undefined);
  });

  it("never lets the photo's position out: in nothing the instances sent or served each other, nor in A's list", async () => {
    const deliveries = exchanges.filter((exchange) => exchange.method === 'POST');
    const kinds = deliveries.map((exchange) => (JSON.parse(exchange.sent) as { type: string }).type);
    for (const kind of ['Create', 'Update', 'Delete', 'Like', 'Undo']) assert.ok(kinds.includes(kind), kind);
    for (const text of [...exchanges.flatMap((exchange) => [exchange.sent, exchange.served]), ...servedToAlice]) {
      for (const position of positionTexts)
        assert.ok(!text.includes(position), `${position} in ${text.slice(0, 2000)}`);
    }
  });

  it("B rejects A's domain: alice's like and follow are refused at B's inbox, and bob's next post never reaches A", async () => {
    // A second post, kept on A before the block.
    const second = await bobPosts('Calanques, late afternoon');
    await publishDue();
    const kept = await keptOnA(second);
    assert.ok(kept);

    const blocked = await b.t.request({
      method: 'POST',
      url: '/admin/federation/domain-blocks',
      token: adminToken,
      body: { domain: new URL(a.url).hostname, severity: 'reject' },
    });
    assert.equal(blocked.statusCode, 201, blocked.body);
    const from = exchanges.length;

    assert.equal((await like('PUT', kept.id)).statusCode, 204);
    const unfollowed = await a.t.request({
      method: 'DELETE',
      url: `/api/users/me/following/${instances.shadowOfBobOnA}`,
      token: alice.token,
    });
    assert.equal(unfollowed.statusCode, 204, unfollowed.body);
    const followed = await a.t.request({
      method: 'POST',
      url: '/api/users/me/following/remote',
      token: alice.token,
      payload: { handle: `@bob@${b.host}` },
    });
    assert.equal(followed.statusCode, 202, followed.body);
    // A's deliveries are refused: Fedify keeps them to retry later, so A's queue is not empty after.
    await drainFederationQueue(a.t);
    await drainFederationQueue(b.t);
    // Each activity is knocked twice (Fedify tries an RFC 9421 signature, then draft-cavage's): refused both times.
    const refused = exchanges
      .slice(from)
      .filter((exchange) => exchange.method === 'POST' && exchange.url.startsWith(b.url));
    assert.deepEqual(
      [...new Set(refused.map((exchange) => (JSON.parse(exchange.sent) as { type: string }).type))].sort(),
      ['Follow', 'Like', 'Undo'],
    );
    assert.deepEqual(
      refused.map((exchange) => exchange.status).filter((status) => status !== 403),
      [],
      'every delivery answered 403 at the inbox',
    );
    assert.equal(await likesCountOnB(second), 0);
    assert.deepEqual(await likersOnB(second), []);
    assert.deepEqual(await listOf(b, bob, '/api/users/me/followers'), []);
    const [request] = await listOf(a, alice, '/api/users/me/following/remote');
    assert.equal(request?.attributes.remoteFollow.state, 'pending', 'never accepted');

    // Bob posts again: nothing goes to A, not even a fetch of one of its actors.
    const third = await bobPosts('Back in the old port');
    a.t.clock.advance(settleMs + 1000);
    b.t.clock.advance(settleMs + 1000);
    await b.t.services.platform.jobs.run('federation-queue');
    await drainFederationQueue(b.t);
    await drainFederationQueue(a.t);
    assert.deepEqual(
      exchanges.slice(from).filter((exchange) => exchange.url.startsWith(a.url)),
      [],
      'B asked nothing of A, and delivered nothing to it',
    );
    assert.equal(await keptOnA(third), undefined);
  });
});
