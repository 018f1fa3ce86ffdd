/** Delivering a remote server's signed activity to the app's inboxes, and draining what it queued. */
import { Create, Note } from '@fedify/fedify/vocab';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/platform/db/rows.ts';
import {
  type FediverseServer,
  type ReceivedActivity,
  type RemoteActor,
  startFediverseServer,
} from '../support/fediverse-server.ts';
import { createTestApp, type TestApp, type TestResponse } from './app.ts';

/** Sends a fetch Request through the app as it arrived (its headers and body bytes untouched). */
export async function deliver(t: TestApp, request: Request, body?: string): Promise<TestResponse> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const url = new URL(request.url);
  return t.request({ method: 'POST', url: url.pathname, headers, payload: body ?? (await request.text()) });
}

/** The messages waiting in Fedify's queue (incoming activities, outgoing deliveries). */
export async function queued(t: TestApp): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.services.platform.transactions.db,
    sql`SELECT count(*)::int AS n FROM federation_queue`,
  );
  return row?.n ?? 0;
}

/** Runs the job federation-queue until nothing is due (an activity handled may queue deliveries). */
export async function drainFederationQueue(t: TestApp): Promise<void> {
  for (let run = 0; run < 5 && (await queued(t)) > 0; run += 1) {
    await t.services.platform.jobs.run('federation-queue');
  }
}

/**
 * `user` follows the remote actor as users do: `POST /api/users/me/following/{id}` (a Follow, delivered
 * to the actor's server by the queue), then the server's signed Accept at the user's inbox. A follow of
 * a remote account is only a request until then. Answers the actor's shadow's id.
 */
export async function followAccepted(
  t: TestApp,
  user: { id: string; token: string },
  server: FediverseServer,
  actor: RemoteActor,
): Promise<string> {
  const { shadowId, follow } = await requestRemoteFollow(t, user, server, actor);
  const inbox = `${t.deps.config.publicUrl}/ap/users/${user.id}/inbox`;
  const accepted = await deliver(t, await server.answerFollow(actor, follow, 'Accept', inbox));
  if (accepted.statusCode !== 202) throw new Error(`Accept: ${accepted.statusCode} ${accepted.body}`);
  await drainFederationQueue(t);
  const { following } = await t.services.areas.follows.follows.relationship(user.id, shadowId);
  if (following === null) throw new Error(`${actor.username}'s Accept made no follow`);
  return shadowId;
}

/**
 * `user` asks to follow the remote actor (`POST /api/users/me/following/{id}`), and the queue delivers
 * the Follow: answers the actor's shadow's id and the Follow its server received (still unanswered).
 */
export async function requestRemoteFollow(
  t: TestApp,
  user: { token: string },
  server: FediverseServer,
  actor: RemoteActor,
): Promise<{ shadowId: string; follow: ReceivedActivity }> {
  const shadow = await t.services.areas.federation.federation?.remoteActor(actor.id);
  if (!shadow) throw new Error(`${actor.username} is not known`);
  const from = server.received.length;
  const asked = await t.request({ method: 'POST', url: `/api/users/me/following/${shadow.userId}`, token: user.token });
  if (asked.statusCode !== 202) throw new Error(`follow: ${asked.statusCode} ${asked.body}`);
  await drainFederationQueue(t);
  const follow = server.received.slice(from).find((received) => received.activity.type === 'Follow');
  if (!follow) throw new Error(`${actor.username}'s server received no Follow`);
  return { shadowId: shadow.userId, follow };
}

/** The app's PUBLIC_URL in federation tests. */
export const federatedPublicUrl = 'https://travel.example';

/**
 * An app with FEDERATION=on (private addresses allowed) and a loopback fediverse server with a
 * Mastodon actor (ana) and a Pixelfed actor (bea).
 */
export interface FederatedTest {
  t: TestApp;
  remote: FediverseServer;
  ana: RemoteActor;
  bea: RemoteActor;
  /** The actor's handle `name@host:port`, as the app shows it. */
  handleOf(actor: RemoteActor): string;
  /** A fixture filled with the actor's name and `values`, signed by the actor, delivered, then handled. */
  send(actor: RemoteActor, fixture: string, values?: Record<string, string>, inbox?: string): Promise<TestResponse>;
  close(): Promise<void>;
}

export async function startFederatedTest(): Promise<FederatedTest> {
  const t = await createTestApp({
    env: { FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE_ADDRESS: 'on', PUBLIC_URL: federatedPublicUrl },
  });
  const remote = await startFediverseServer();
  const ana = await remote.addActor('mastodon-actor', 'ana');
  const bea = await remote.addActor('pixelfed-actor', 'bea');
  return {
    t,
    remote,
    ana,
    bea,
    handleOf: (actor) => `${actor.username}@${new URL(remote.origin).host}`,
    async send(actor, fixture, values = {}, inbox = `${federatedPublicUrl}/ap/inbox`) {
      const body = remote.fixture(fixture, { username: actor.username, ...values });
      const response = await deliver(t, await remote.signedPost(actor, inbox, body));
      await drainFederationQueue(t);
      return response;
    },
    async close() {
      await remote.close();
      await t.close();
    },
  };
}

/**
 * A Create(Note) from the local user to a remote actor (`actorId`, its inbox `inbox`), queued through
 * Fedify as the app queues its deliveries (the job federation-queue sends it).
 */
export async function queueNoteTo(t: TestApp, userId: string, actorId: string, inbox: string, text: string) {
  const federation = await t.services.areas.federation.federation?.federation();
  if (!federation) throw new Error('federation is off');
  const ctx = federation.createContext(new URL(federatedPublicUrl), null);
  const id = new URL(`${federatedPublicUrl}/ap/posts/${crypto.randomUUID()}`);
  await ctx.sendActivity(
    { identifier: userId },
    { id: new URL(actorId), inboxId: new URL(inbox), endpoints: null },
    new Create({
      id: new URL(`${id.href}#create`),
      actor: ctx.getActorUri(userId),
      object: new Note({ id, attribution: ctx.getActorUri(userId), content: text }),
    }),
  );
}
