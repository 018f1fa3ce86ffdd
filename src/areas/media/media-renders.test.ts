/**
 * Renders are bounded (issue 9): a queue of MEDIA_RENDER_CONCURRENCY renders at once, cached files
 * served while renders wait, a bounded wait then 503 with Retry-After, renders of clients that left
 * dropped, common variants rendered by the media-variants job, and a per-IP limit on renders.
 * Renders are held at a gate (the read of the original) so states are asserted, never durations.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { createTestApp, type TestApp, type TestResponse } from '../../../test/helpers/app.ts';
import { createUser, type TestUser } from '../../../test/helpers/factories.ts';
import { upload } from '../../../test/helpers/media-uploads.ts';
import { waitFor } from '../../../test/helpers/wait-for.ts';
import { makeJpeg } from '../../../test/support/test-images.ts';
import { LocalStorage, type MediaStorage } from '../../adapters/storage/index.ts';

/** Local storage whose reads of originals (the first step of every render) wait while the gate is closed. */
class GatedStorage {
  readonly storage: MediaStorage;
  readonly originalReads: string[] = [];
  readonly puts: string[] = [];
  inFlight = 0;
  mostInFlight = 0;
  #open = true;
  #waiting: Array<() => void> = [];

  constructor() {
    const inner = new LocalStorage(mkdtempSync(join(tmpdir(), 'media-renders-')));
    this.storage = {
      put: (key, data, contentType) => {
        this.puts.push(key);
        return inner.put(key, data, contentType);
      },
      get: async (key) => {
        if (!key.startsWith('originals/')) return inner.get(key);
        this.originalReads.push(key);
        this.inFlight += 1;
        this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
        try {
          if (!this.#open) await new Promise<void>((resolve) => this.#waiting.push(resolve));
          return await inner.get(key);
        } finally {
          this.inFlight -= 1;
        }
      },
      getStream: (key, range) => inner.getStream(key, range),
      stat: (key) => inner.stat(key),
      exists: (key) => inner.exists(key),
      delete: (key) => inner.delete(key),
      list: (prefix) => inner.list(prefix),
    };
  }

  close() {
    this.#open = false;
  }

  release() {
    this.#open = true;
    for (const resume of this.#waiting.splice(0)) resume();
  }
}

async function uploadPosts(t: TestApp, user: TestUser, count: number): Promise<string[]> {
  const jpeg = await makeJpeg({ width: 64, height: 48 });
  const hexes: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const res = await upload(t, '/api/users/me/media', user.token, jpeg);
    assert.equal(res.statusCode, 201, res.body);
    hexes.push(res.json.data.attributes.hex);
  }
  return hexes;
}

/** Starts a request and records when it has been answered. */
function track(promise: Promise<TestResponse>) {
  const tracked = { settled: false, response: promise };
  void promise.then(() => {
    tracked.settled = true;
  });
  return tracked;
}

describe('the render queue (concurrency 2, long wait)', () => {
  let t: TestApp;
  let gate: GatedStorage;
  let ada: TestUser;
  const counters = () => t.services.areas.media.mediaVariants.renderCounters();
  const get = (url: string) => t.request({ method: 'GET', url, headers: { accept: 'application/json' } });

  before(async () => {
    gate = new GatedStorage();
    t = await createTestApp({
      env: { MEDIA_RENDER_CONCURRENCY: '2', MEDIA_RENDER_WAIT_MS: '60000' },
      deps: { storage: gate.storage },
    });
    ada = await createUser(t);
  });
  // A failed test must not leave renders held at the gate for the next one.
  afterEach(() => gate.release());
  after(async () => {
    gate.release();
    await t.close();
  });

  it('renders the common variants of an upload in the media-variants job, so readers get them without a render', async () => {
    const [hex] = await uploadPosts(t, ada, 1);
    const outcome = await t.services.platform.jobs.run('media-variants');
    assert.equal(outcome.ran, true);
    assert.ok(outcome.ran && Number(outcome.report.rendered) >= 4, JSON.stringify(outcome));
    for (const key of ['thumb.webp', 'small.webp', 'large.webp', 'large.jpeg']) {
      assert.ok(
        gate.puts.some((put) => put.includes(hex!) && put.endsWith(`/${key}`)),
        `${key} rendered by the job`,
      );
    }

    // With renders held at the gate, a render would never answer: these come from storage.
    gate.close();
    const readsBefore = gate.originalReads.length;
    for (const url of [
      `/media/${hex}.webp?size=thumb`,
      `/media/${hex}.webp?size=small`,
      `/media/${hex}.webp?size=large`,
      `/media/${hex}.jpg?size=large`,
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
    }
    assert.equal(gate.originalReads.length, readsBefore, 'no render for a variant the job made');
    gate.release();

    const again = await t.services.platform.jobs.run('media-variants');
    assert.ok(again.ran && again.report.media === 0, 'nothing left for a second run');
  });

  it('never runs more renders at once than its concurrency; the others wait their turn', async () => {
    const hexes = await uploadPosts(t, ada, 6);
    gate.close();
    const requests = hexes.map((hex) => track(get(`/media/${hex}.png?size=small`)));
    // A running render first reads the media's row, then its original: wait until both are held at the gate.
    await waitFor(
      'two renders at the gate and four queued',
      () => counters().running === 2 && counters().queued === 4 && gate.inFlight === 2,
    );
    // Give the queue every chance to start a third one: it must not.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gate.inFlight, 2);
    assert.equal(counters().running, 2);
    assert.ok(
      requests.every((request) => !request.settled),
      'every reader is still waiting',
    );
    gate.release();
    const answers = await Promise.all(requests.map((request) => request.response));
    assert.deepEqual(
      answers.map((res) => res.statusCode),
      [200, 200, 200, 200, 200, 200],
    );
    assert.equal(counters().mostRunning, 2);
    assert.equal(gate.mostInFlight, 2);
  });

  it('answers a cached thumbnail while renders are running and queued', async () => {
    const [cached, ...others] = await uploadPosts(t, ada, 5);
    assert.equal((await get(`/media/${cached}.webp?size=thumb`)).statusCode, 200);
    gate.close();
    const renders = others.map((hex) => track(get(`/media/${hex}.avif?size=small`)));
    await waitFor('two renders running and two queued', () => counters().running === 2 && counters().queued === 2);

    const thumbnail = await get(`/media/${cached}.webp?size=thumb`);
    assert.equal(thumbnail.statusCode, 200);
    assert.equal(thumbnail.headers['content-type'], 'image/webp');
    assert.deepEqual(
      [counters().running, counters().queued],
      [2, 2],
      'the renders are still where they were when the thumbnail was answered',
    );
    assert.ok(
      renders.every((render) => !render.settled),
      'no render had finished',
    );
    gate.release();
    for (const render of renders) assert.equal((await render.response).statusCode, 200);
  });

  it('drops a queued render whose client closed the connection', async () => {
    const [first, second, abandoned] = await uploadPosts(t, ada, 3);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    gate.close();
    const busy = [first, second].map((hex) => get(`/media/${hex}.webp?size=large`));
    await waitFor('both slots taken', () => counters().running === 2);
    const droppedBefore = counters().dropped;

    const client = httpRequest({ host: '127.0.0.1', port, path: `/media/${abandoned}.webp?size=large` });
    client.on('error', () => undefined);
    client.end();
    await waitFor('the third render queued', () => counters().queued === 1);
    client.destroy();
    await waitFor('the abandoned render dropped', () => counters().dropped === droppedBefore + 1);
    assert.equal(counters().queued, 0);

    gate.release();
    for (const res of await Promise.all(busy)) assert.equal(res.statusCode, 200);
    assert.ok(!gate.originalReads.some((key) => key.includes(abandoned!)), 'the dropped render never started');
    assert.ok(
      !gate.puts.some((key) => key.startsWith('variants/') && key.includes(abandoned!)),
      'no variant stored for it',
    );
    const later = await get(`/media/${abandoned}.webp?size=large`);
    assert.equal(later.statusCode, 200, 'a later reader gets it rendered');
  });
});

describe('a variant not ready in time, and the per-IP render limit', () => {
  let t: TestApp;
  let gate: GatedStorage;
  let ada: TestUser;
  const counters = () => t.services.areas.media.mediaVariants.renderCounters();
  const getFrom = (ip: string, url: string) =>
    t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: { accept: 'application/json' } });

  before(async () => {
    gate = new GatedStorage();
    t = await createTestApp({
      env: {
        MEDIA_RENDER_CONCURRENCY: '1',
        MEDIA_RENDER_WAIT_MS: '100',
        RATE_LIMITS: 'on',
        MEDIA_RENDER_RATE_LIMIT: '3',
      },
      deps: { storage: gate.storage },
    });
    ada = await createUser(t);
  });
  after(async () => {
    gate.release();
    await t.close();
  });

  it('answers 503 variantNotReady with Retry-After, and keeps the render queued for the retry', async () => {
    const [hex] = await uploadPosts(t, ada, 1);
    gate.close();
    const res = await getFrom('10.0.0.1', `/media/${hex}.webp?size=small`);
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers['retry-after'], '2');
    assert.equal(res.json().errors[0].code, 'variantNotReady');
    assert.equal(counters().running, 1, 'the render goes on after the answer');

    gate.release();
    await waitFor('the render done', () => counters().running === 0 && counters().queued === 0);
    const retry = await getFrom('10.0.0.1', `/media/${hex}.webp?size=small`);
    assert.equal(retry.statusCode, 200);
    assert.equal(retry.headers['content-type'], 'image/webp');
    assert.equal(gate.originalReads.filter((key) => key.includes(hex!)).length, 1, 'rendered once');
  });

  it('limits the renders one IP asks for; stored files stay unlimited', async () => {
    const [hex] = await uploadPosts(t, ada, 1);
    const renders = ['thumb.webp', 'small.webp', 'thumb.jpg'].map(
      (variant) => `/media/${hex}.${variant.split('.')[1]}?size=${variant.split('.')[0]}`,
    );
    for (const url of renders) {
      // A loaded machine may take longer than MEDIA_RENDER_WAIT_MS: the render then finishes in the
      // background and the retry reads the stored file (which no limit counts).
      let res = await getFrom('10.0.0.2', url);
      if (res.statusCode === 503) {
        await waitFor('the render done', () => counters().running === 0 && counters().queued === 0);
        res = await getFrom('10.0.0.2', url);
      }
      assert.equal(res.statusCode, 200, url);
    }

    const refused = await getFrom('10.0.0.2', `/media/${hex}.png?size=large`);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().errors[0].code, 'rateLimited');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.ok(!gate.puts.some((key) => key.endsWith(`${hex}/large.png`)), 'the refused render was not made');

    for (let round = 0; round < 3; round += 1) {
      for (const url of renders) assert.equal((await getFrom('10.0.0.2', url)).statusCode, 200, `${url} is stored`);
    }
    const other = await getFrom('10.0.0.3', `/media/${hex}.png?size=large`);
    if (other.statusCode === 503)
      await waitFor('the render done', () => counters().running === 0 && counters().queued === 0);
    else assert.equal(other.statusCode, 200, 'another IP may');
    assert.equal((await getFrom('10.0.0.2', `/media/${hex}.png?size=large`)).statusCode, 200, 'now stored');
  });
});
