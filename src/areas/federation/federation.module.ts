/**
 * federation: ActivityPub through Fedify (docs/api.md, Federation; docs/operations.md, Federation).
 * Off by default: with FEDERATION off the area keeps only its erasure and export duties, the remote
 * posts already kept (their list, answered, and their pruning, the job remote-posts), and the
 * operators' domain blocks and delivery health (their admin routes); it serves no federated path,
 * registers no federation-queue job and never loads Fedify. On, the Fastify bridge
 * (platform/http/fetch-bridge.ts) hands Fedify the federated paths, and the job federation-queue
 * drains Fedify's message queue.
 */

import { keysetBatches } from '../../platform/exports/keyset-batches.ts';
import { registerFetchBridge } from '../../platform/http/fetch-bridge.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { everyMinutes } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { CheckedConnections } from '../../platform/net/checked-connections.ts';
import { lazyServerSecret } from '../../platform/secrets/server-secret.ts';
import { ActorKeysRepository } from './actor-keys.repository.ts';
import { ActorKeysService } from './actor-keys.service.ts';
import { federatedPaths } from './actor-paths.ts';
import { DatabaseKvStore } from './database-kv-store.ts';
import { DatabaseMessageQueue } from './database-message-queue.ts';
import { deliveryHealthAdminRoutes } from './delivery-health.admin-routes.ts';
import { DeliveryHealthRepository } from './delivery-health.repository.ts';
import { DeliveryHealthService } from './delivery-health.service.ts';
import { DomainBlockList } from './domain-block-list.ts';
import { domainBlocksAdminRoutes } from './domain-blocks.admin-routes.ts';
import { inboxRefusal } from './domain-blocks.inbox-gate.ts';
import { DomainBlocksRepository } from './domain-blocks.repository.ts';
import { DomainBlocksService } from './domain-blocks.service.ts';
import { FederationRuntime } from './federation-runtime.ts';
import { FederationSecrets } from './federation-secrets.ts';
import { isPublicInbox } from './inbox-addresses.ts';
import { federationRateLimits } from './inbox-rate-limits.ts';
import { KvStoreRepository } from './kv-store.repository.ts';
import { FederatedPosts } from './outbound/federated-posts.ts';
import { OutboundPostsRepository } from './outbound/outbound-posts.repository.ts';
import { subscribeOutbound } from './outbound/outbound-subscriptions.ts';
import { PostSync } from './outbound/post-sync.ts';
import { OutboundFollowsRepository } from './outbound-follows.repository.ts';
import { outboundFollowsRoutes } from './outbound-follows.routes.ts';
import { OutboundFollowsService } from './outbound-follows.service.ts';
import type { FederationServices } from './public.ts';
import { QueueRepository } from './queue.repository.ts';
import { QueueWake } from './queue-wake.ts';
import { RemoteActorsRepository } from './remote-actors.repository.ts';
import { RemoteActorsService } from './remote-actors.service.ts';
import { RemoteCommentsRepository } from './remote-comments.repository.ts';
import { RemoteCommentsService } from './remote-comments.service.ts';
import { RemotePostsRepository } from './remote-posts/remote-posts.repository.ts';
import { remotePostsRoutes } from './remote-posts/remote-posts.routes.ts';
import { RemotePostsService } from './remote-posts/remote-posts.service.ts';

/** The largest activity the inboxes take (Mastodon's own limit is about 1 MB too). */
const inboxBodyLimit = 1024 * 1024;

export const federationArea = defineArea({
  name: 'federation',
  needs: ['accounts', 'comments', 'filters', 'follows', 'geography', 'media', 'reactions', 'reports'],
  create(
    { config, transactions, clock, jobs, logger, events, exports, stats, audit, addressLookup, broadcast, caches },
    { accounts, comments, filters, follows, geography, media, reactions, reports },
  ): FederationServices {
    const actorKeysRepository = new ActorKeysRepository(transactions);
    const remoteActorsRepository = new RemoteActorsRepository(transactions);
    const outboundFollowsRepository = new OutboundFollowsRepository(transactions);
    const outboundPostsRepository = new OutboundPostsRepository(transactions);
    events.subscribe('user.erasing', 'inTransaction', 'federation.erase', async ({ userId }) => {
      await actorKeysRepository.eraseUser(userId);
      await remoteActorsRepository.eraseUser(userId);
      await outboundFollowsRepository.eraseUser(userId);
      await outboundPostsRepository.eraseUser(userId);
    });
    exports.register({
      name: 'federation-keys',
      description: 'The public keys of your ActivityPub actor (the private keys never leave the server).',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => actorKeysRepository.exportRows(userId, after, limit),
          (row) => row.algorithm,
        ),
    });
    // Moderation (domain blocks) and delivery health are kept with federation off too: operators may
    // block domains before turning it on.
    const domainBlocksRepository = new DomainBlocksRepository(transactions);
    const domainBlockList = new DomainBlockList({
      clock,
      broadcast,
      transactions,
      load: () => domainBlocksRepository.severities(),
    });
    caches.register('federation.domainBlocks', domainBlockList);
    const domainBlocks = new DomainBlocksService({
      transactions,
      repository: domainBlocksRepository,
      accounts,
      follows: follows.follows,
      audit,
      clock,
      list: domainBlockList,
    });
    const deliveryHealth = new DeliveryHealthService({ repository: new DeliveryHealthRepository(transactions), clock });
    const rejects = (host: string) => domainBlocks.rejects(host);
    exports.register({
      name: 'remote-follows',
      description:
        'The accounts of other servers you follow or asked to follow (remoteUserId, their actor URL), pending or accepted, and since when.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => outboundFollowsRepository.exportRows(userId, after, limit),
          (row) => row.remoteUserId,
        ),
    });
    const remotePostsRepository = new RemotePostsRepository(transactions);
    events.subscribe('user.erasing', 'inTransaction', 'federation.eraseRemotePosts', ({ userId }) =>
      remotePostsRepository.eraseUser(userId),
    );
    exports.register({
      name: 'remote-post-likes',
      description: 'The fediverse posts you liked (their URIs), and when.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => remotePostsRepository.exportLikes(userId, after, limit),
          (row) => row.postId,
        ),
    });
    exports.register({
      name: 'remote-post-replies',
      description: 'Your replies to fediverse posts: the text sent, the post it answered, and when.',
      rows: (userId) =>
        keysetBatches(
          (after, limit) => remotePostsRepository.exportReplies(userId, after, limit),
          (row) => row.id,
        ),
    });
    const remoteActors = new RemoteActorsService({
      transactions,
      repository: remoteActorsRepository,
      accounts,
      clock,
      rejects,
    });
    // Set below when FEDERATION is on: likes and replies are sent through the runtime.
    let runtime: FederationRuntime | null = null;
    const remotePosts = new RemotePostsService({
      transactions,
      repository: remotePostsRepository,
      remoteActors,
      filters: filters.filters,
      clock,
      publicUrl: config.publicUrl,
      activities: config.federation.enabled
        ? () => {
            if (runtime === null) throw new Error('federation is not built');
            return runtime.remotePostActivities();
          }
        : null,
    });
    jobs.register('remote-posts', { schedule: everyMinutes(60), run: () => remotePosts.prune() });
    if (!config.federation.enabled)
      return { federation: null, outboundFollows: null, remotePosts, domainBlocks, deliveryHealth };

    const secrets = new FederationSecrets(lazyServerSecret(config.dataDir, 'federation', config.federation.secret));
    const kvRepository = new KvStoreRepository(transactions);
    const wake = new QueueWake(jobs, logger);
    const queueRepository = new QueueRepository(transactions);
    stats.registerBacklog('federation.queueWaiting', async () => {
      const { ready, delayed } = await queueRepository.depth(clock.now());
      return ready + delayed;
    });
    const queue = new DatabaseMessageQueue({
      repository: queueRepository,
      secrets,
      clock,
      logger,
      wake: (delayMs) => wake.request(delayMs),
      rejects,
      // Fedify posts to the inbox an actor names as given: only here is a private one refused.
      deliverable: config.federation.allowPrivateAddress
        ? async () => true
        : (inbox) => isPublicInbox(inbox, addressLookup),
      health: deliveryHealth,
    });
    const outboundFollows = new OutboundFollowsService({
      publicUrl: config.publicUrl,
      allowPrivateAddress: config.federation.allowPrivateAddress,
      transactions,
      repository: outboundFollowsRepository,
      remoteActors,
      follows: follows.follows,
      clock,
      // The runtime below (made after, as its inbox handlers need this service); called only once running.
      sender: () => federation.outboundFollows(),
    });
    follows.remoteFollowing.register(outboundFollows);
    events.subscribe('user.blocked', 'inTransaction', 'federation.withdrawBlockedFollows', ({ blockerId, blockedId }) =>
      outboundFollows.blocked(blockerId, blockedId),
    );
    const posts = new FederatedPosts({
      publicUrl: config.publicUrl,
      media: media.media,
      posts: media.posts,
      users: accounts.users,
      geography: geography.geography,
    });
    const postSync = new PostSync({
      transactions,
      clock,
      logger,
      repository: outboundPostsRepository,
      posts,
      users: accounts.users,
      wake: (delayMs) => wake.request(delayMs),
    });
    const actorKeys = new ActorKeysService({ repository: actorKeysRepository, secrets, clock });
    const federation = new FederationRuntime({
      publicUrl: config.publicUrl,
      allowPrivateAddress: config.federation.allowPrivateAddress,
      kv: new DatabaseKvStore({ transactions, repository: kvRepository, clock }),
      queue,
      users: accounts.users,
      actorKeys,
      stats,
      logger,
      remoteActors,
      inbound: {
        remoteActors,
        follows: follows.follows,
        users: accounts.users,
        reactions: reactions.reactions,
        remoteComments: new RemoteCommentsService({
          transactions,
          repository: new RemoteCommentsRepository(transactions),
          comments: comments.comments,
          clock,
        }),
        reports: reports.reports,
        outboundFollows,
        remotePosts,
        media: media.media,
        domainSeverityOf: (host) => domainBlocks.severityOf(host),
      },
      outbound: {
        posts,
        users: accounts.users,
        follows: follows.follows,
        media: media.media,
        outboundPosts: outboundPostsRepository,
      },
      connections: new CheckedConnections({
        allowPrivate: config.federation.allowPrivateAddress,
        ...(addressLookup ? { lookup: addressLookup } : {}),
      }),
    });
    subscribeOutbound({ events, transactions, logger, postSync, federation });
    runtime = federation;
    let stopped = false;
    jobs.register('federation-queue', {
      schedule: everyMinutes(1),
      run: async () => {
        const posts = await postSync.runDue(
          (activity) => federation.sendPostActivity(activity, clock.now()),
          () => stopped,
        );
        const follows = await outboundFollows.retryDue(() => stopped);
        const report = await federation.drainQueue(() => stopped);
        // The posts' figures only when a post was due (most runs deliver only).
        const sentPosts = Object.values(posts).some((count) => count > 0) ? { posts } : {};
        const retriedFollows = follows.resent + follows.expired > 0 ? { follows } : {};
        return {
          ...report,
          ...sentPosts,
          ...retriedFollows,
          expiredEntries: await kvRepository.deleteExpired(clock.now()),
        };
      },
      stop: () => {
        stopped = true;
      },
    });
    return { federation, outboundFollows, remotePosts, domainBlocks, deliveryHealth };
  },
  routes: async (app, services, { config }) => {
    const { federation, domainBlocks, deliveryHealth } = services;
    // Declared whether federation is on or not (off, they answer 409 federationOff).
    registerRoutes(app, 'follows', outboundFollowsRoutes(services));
    registerRoutes(app, 'federation', remotePostsRoutes(services.remotePosts, config.publicUrl));
    registerRoutes(app, 'admin', [
      ...domainBlocksAdminRoutes(domainBlocks),
      ...deliveryHealthAdminRoutes(deliveryHealth),
    ]);
    if (federation === null) return;
    await registerFetchBridge(app, {
      exactPaths: federatedPaths.exact,
      prefix: federatedPaths.prefix,
      publicUrl: config.publicUrl,
      bodyLimit: inboxBodyLimit,
      rateLimit: federationRateLimits,
      // A rejected domain is refused before Fedify checks the signature (domain-blocks.inbox-gate.ts).
      handle: async (request) =>
        (await inboxRefusal({ rejects: (host) => domainBlocks.rejects(host) }, request)) ?? federation.fetch(request),
    });
  },
  stop: async ({ federation }) => {
    await federation?.stop();
  },
});
