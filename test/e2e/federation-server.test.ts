/**
 * The real server with FEDERATION=on (node src/main.ts, its own database): WebFinger and the actor
 * over real HTTP at the address it listens on (PUBLIC_URL's default), and an activity signed by an
 * actor of a loopback fediverse server taken at the shared inbox, its key fetched over HTTP
 * (FEDERATION_ALLOW_PRIVATE_ADDRESS=on), filed on the queue and handled by the job federation-queue
 * that the inbox asked pg-boss for, with no operator's flush.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/platform/db/database.ts';
import { openTestDatabase, postgresUrlOf, testEngine } from '../helpers/database.ts';
import { copyMigratedDataDirectory } from '../helpers/pglite-test-database.ts';
import { type ServerProcess, startServer } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { type FediverseServer, startFediverseServer } from '../support/fediverse-server.ts';

const activityJson = 'application/activity+json';

describe('federation on the real server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tms-federation-server-'));
  let database: Database | null = null;
  let server: ServerProcess;
  let remote: FediverseServer;
  let actorUrl: string;

  before(async () => {
    if (testEngine() === 'postgres') database = await openTestDatabase();
    else await copyMigratedDataDirectory(join(dataDir, 'db'));
    remote = await startFediverseServer();
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database === null ? '' : await postgresUrlOf(database),
      FEDERATION: 'on',
      FEDERATION_ALLOW_PRIVATE_ADDRESS: 'on',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'info',
    });
    const registered = await server.call('POST', '/api/auth/register', {
      body: { email: 'lea@example.test', password: 'a long enough password 1', username: 'lea' },
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.json));
  });

  after(async () => {
    await server?.stop();
    await remote?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers WebFinger and serves the actor at the address it listens on', async () => {
    const host = new URL(server.base).host;
    const webfinger = await fetch(`${server.base}/.well-known/webfinger?resource=acct:lea@${host}`);
    assert.equal(webfinger.status, 200);
    const jrd = (await webfinger.json()) as { links: { rel: string; href: string }[] };
    const self = jrd.links.find((link) => link.rel === 'self');
    assert.ok(self?.href.startsWith(`${server.base}/ap/users/`));
    actorUrl = self!.href;
    const actor = await fetch(actorUrl, { headers: { accept: activityJson } });
    assert.equal(actor.status, 200);
    const person = (await actor.json()) as { type: string; preferredUsername: string; publicKey: { id: string } };
    assert.equal(person.type, 'Person');
    assert.equal(person.preferredUsername, 'lea');
    assert.ok(person.publicKey.id.startsWith(actorUrl));
  });

  it('takes a signed activity at the shared inbox and handles it through the job queue', async () => {
    const ana = await remote.addActor('mastodon-actor', 'ana');
    const body = remote.fixture('mastodon-like', { username: 'ana', object: actorUrl });
    const answer = await fetch(await remote.signedPost(ana, `${server.base}/ap/inbox`, body));
    assert.equal(answer.status, 202, await answer.text());
    assert.ok(remote.fetched.includes('/users/ana'), 'the key was fetched from the remote server');
    await waitFor(
      'a run of federation-queue that handled the activity',
      () =>
        server.output
          .join('')
          .split('\n')
          .some((line) => line.includes('"job":"federation-queue"') && line.includes('"handled":1')),
      60_000,
    );
  });
});
