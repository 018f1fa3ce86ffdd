/**
 * The federation of a service with FEDERATION=on: Fedify is imported and the federation built on first
 * use (a request on a federated path, or a run of the job federation-queue), never at start-up, so
 * start-up costs nothing more. It answers the Fastify bridge's requests and drains the message queue.
 */
import { readFileSync } from 'node:fs';
import type { Context, Federation } from '@fedify/fedify';
import type { FastifyBaseLogger } from 'fastify';
import type { CheckedConnections } from '../../platform/net/checked-connections.ts';
import type { Stats } from '../../platform/stats/stats.ts';
import type { UsersService } from '../accounts/public.ts';
import type { ActorKeysService } from './actor-keys.service.ts';
import { mediaIdOfPostPath, userIdOfActorPath } from './actor-paths.ts';
import type { DatabaseKvStore } from './database-kv-store.ts';
import type { DatabaseMessageQueue, DrainReport } from './database-message-queue.ts';
import type { InboundDeps } from './inbound/inbound-deps.ts';
import type { fetchActorProfile } from './inbound/remote-party.ts';
import type { OutboundDeps } from './outbound/outbound-deps.ts';
import type { sendActorDelete, sendPostActivity } from './outbound/post-activities.ts';
import type { PostActivity } from './outbound/post-sync.ts';
import type { OutboundFollowActivities } from './outbound-follow-activities.ts';
import type { RemoteActorsService } from './remote-actors.service.ts';
import type { remotePostActivitiesOf } from './remote-posts/remote-post-activities.ts';
import type { RemotePostActivities } from './remote-posts/remote-posts.service.ts';
import type { RemoteActorRow } from './tables.ts';

export interface FederationRuntimeDeps {
  publicUrl: string;
  allowPrivateAddress: boolean;
  kv: DatabaseKvStore;
  queue: DatabaseMessageQueue;
  users: UsersService;
  actorKeys: ActorKeysService;
  stats: Stats;
  logger: FastifyBaseLogger;
  remoteActors: RemoteActorsService;
  inbound: InboundDeps;
  outbound: OutboundDeps;
  /** Every fetch of Fedify's (deliveries, documents, WebFinger) connects through its checks. */
  connections: CheckedConnections;
}

interface OutboundSenders {
  sendPostActivity: typeof sendPostActivity;
  sendActorDelete: typeof sendActorDelete;
}

const softwareVersion = () =>
  (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export class FederationRuntime {
  readonly #deps: FederationRuntimeDeps;
  readonly #stopping = new AbortController();
  #federation: Promise<Federation<null>> | null = null;
  #fetchActorProfile: typeof fetchActorProfile | null = null;
  #outboundFollowActivities: OutboundFollowActivities | null = null;
  #remotePostActivitiesOf: typeof remotePostActivitiesOf | null = null;
  #senders: OutboundSenders | null = null;

  constructor(deps: FederationRuntimeDeps) {
    this.#deps = deps;
  }

  /** The federation, built on first call; its queue listens from then on (drained by the job). */
  federation(): Promise<Federation<null>> {
    this.#federation ??= this.#build();
    return this.#federation;
  }

  /** Fedify's answer to a request on a federated path; null when it has nothing there (the bridge's 404). */
  async fetch(request: Request): Promise<Response | null> {
    const federation = await this.federation();
    const notFound = new Response(null, { status: 404 });
    // An inbox POST fetches its signer's key.
    const response = await this.#deps.connections.run(() =>
      federation.fetch(request, {
        contextData: null,
        onNotFound: () => notFound,
        onNotAcceptable: (asked) => this.#profilePage(asked),
      }),
    );
    return response === notFound ? null : response;
  }

  /**
   * A remote actor by its URI: the copy kept, or fetched through Fedify's document loader (private
   * addresses only with FEDERATION_ALLOW_PRIVATE_ADDRESS) when unknown or older than a day.
   */
  async remoteActor(uri: string): Promise<RemoteActorRow | null> {
    const federation = await this.federation();
    const fetchActorProfile = this.#fetchActorProfile;
    if (fetchActorProfile === null) return null;
    const ctx = federation.createContext(new URL(this.#deps.publicUrl), null);
    return this.#deps.remoteActors.resolve(uri, () =>
      this.#deps.connections.run(() => fetchActorProfile(ctx, new URL(uri))),
    );
  }

  /** A context of this server to send from, with the remote follows' activities (outbound-follows.service.ts). */
  async outboundFollows(): Promise<{ ctx: Context<null>; activities: OutboundFollowActivities }> {
    const federation = await this.federation();
    const sent = this.#outboundFollowActivities;
    if (sent === null) throw new Error('federation built without its outbound follow activities');
    // The lookup fetches (WebFinger, the actor); the others only queue.
    const activities = {
      ...sent,
      lookup: (...args: Parameters<OutboundFollowActivities['lookup']>) =>
        this.#deps.connections.run(() => sent.lookup(...args)),
    };
    return { ctx: federation.createContext(new URL(this.#deps.publicUrl), null), activities };
  }

  /** What local users send about remote posts (likes, replies), through the federation's queue. */
  async remotePostActivities(): Promise<RemotePostActivities> {
    const federation = await this.federation();
    const activitiesOf = this.#remotePostActivitiesOf;
    if (activitiesOf === null) throw new Error('the federation was built without its senders');
    return activitiesOf(federation.createContext(new URL(this.#deps.publicUrl), null));
  }

  /** A post's Create, Update or Delete to its owner's remote followers (outbound/post-sync.ts decides which). */
  async sendPostActivity(activity: PostActivity, now: Date): Promise<boolean> {
    const { ctx, senders } = await this.#sending();
    const { outboundPosts } = this.#deps.outbound;
    return senders.sendPostActivity(ctx, activity, now, (userId) => outboundPosts.hasRemoteFollower(userId));
  }

  /**
   * An erased account's Delete of its actor to its remote followers, queued in the erasure's
   * transaction, before its keys and follows go. Nothing without a remote follower.
   */
  async deleteActor(userId: string): Promise<void> {
    const followers = await this.#deps.outbound.outboundPosts.remoteFollowersOf(userId);
    if (followers.length === 0) return;
    const { ctx, senders } = await this.#sending();
    await senders.sendActorDelete(ctx, userId, await this.#deps.actorKeys.keyPairsOf(userId), followers);
  }

  async #sending() {
    const federation = await this.federation();
    const senders = this.#senders;
    if (senders === null) throw new Error('federation built without its senders');
    return { ctx: federation.createContext(new URL(this.#deps.publicUrl), null), senders };
  }

  /** The job federation-queue: every due message through Fedify's handler. */
  async drainQueue(stopped: () => boolean): Promise<DrainReport> {
    await this.federation();
    return this.#deps.connections.run(() => this.#deps.queue.drain(stopped));
  }

  stop(): Promise<void> {
    this.#stopping.abort();
    return this.#deps.connections.close();
  }

  async #build(): Promise<Federation<null>> {
    const setup = await import('./federation-setup.ts');
    this.#fetchActorProfile = setup.fetchActorProfile;
    this.#outboundFollowActivities = setup.outboundFollowActivities;
    this.#remotePostActivitiesOf = setup.remotePostActivitiesOf;
    this.#senders = { sendPostActivity: setup.sendPostActivity, sendActorDelete: setup.sendActorDelete };
    const { publicUrl, allowPrivateAddress, kv, queue, users, actorKeys, stats, inbound, outbound } = this.#deps;
    const federation = setup.buildFederation({
      publicUrl,
      allowPrivateAddress,
      softwareVersion: softwareVersion(),
      kv,
      queue,
      users,
      actorKeys,
      stats,
      inbound,
      onOutboxError: (error) => queue.noteDeliveryError(error),
      outbound,
    });
    // Resolves when the service stops; the queue's messages are handed over by the job's drain.
    void federation.startQueue(null, { signal: this.#stopping.signal });
    this.#deps.logger.info({ event: 'federation.started' }, 'federation started');
    return federation;
  }

  /** A browser (HTML) asking for an actor's URL gets the profile page, for a post's the post's page. */
  async #profilePage(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    const mediaId = mediaIdOfPostPath(pathname);
    if (mediaId !== null) return this.#postPage(mediaId);
    const userId = userIdOfActorPath(pathname);
    const user = userId === null ? null : await this.#deps.users.findVisible(userId);
    if (user?.username == null) return new Response('Not Acceptable', { status: 406, headers: { Vary: 'Accept' } });
    return new Response(null, {
      status: 302,
      headers: {
        Location: new URL(`/@${encodeURIComponent(user.username)}`, this.#deps.publicUrl).href,
        Vary: 'Accept',
      },
    });
  }

  async #postPage(mediaId: string): Promise<Response> {
    const post = await this.#deps.outbound.posts.publicPost(mediaId);
    if (post === null) return new Response('Not Found', { status: 404, headers: { Vary: 'Accept' } });
    return new Response(null, { status: 302, headers: { Location: post.url, Vary: 'Accept' } });
  }
}
