/**
 * federation: ActivityPub through Fedify (docs/api.md, Federation; docs/operations.md, Federation).
 * Off by default: with FEDERATION off the area keeps only its erasure and export duties, serves no
 * path, registers no job and never loads Fedify. On, the Fastify bridge (platform/http/fetch-bridge.ts)
 * hands Fedify the federated paths, and the job federation-queue drains Fedify's message queue.
 */

import { keysetBatches } from '../../platform/exports/keyset-batches.ts';
import { registerFetchBridge } from '../../platform/http/fetch-bridge.ts';
import { everyMinutes } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { lazyServerSecret } from '../../platform/secrets/server-secret.ts';
import { ActorKeysRepository } from './actor-keys.repository.ts';
import { ActorKeysService } from './actor-keys.service.ts';
import { federatedPaths } from './actor-paths.ts';
import { DatabaseKvStore } from './database-kv-store.ts';
import { DatabaseMessageQueue } from './database-message-queue.ts';
import { FederationRuntime } from './federation-runtime.ts';
import { FederationSecrets } from './federation-secrets.ts';
import { federationRateLimits } from './inbox-rate-limits.ts';
import { KvStoreRepository } from './kv-store.repository.ts';
import { FederatedPosts } from './outbound/federated-posts.ts';
import { OutboundPostsRepository } from './outbound/outbound-posts.repository.ts';
import { subscribeOutbound } from './outbound/outbound-subscriptions.ts';
import { PostSync } from './outbound/post-sync.ts';
import type { FederationServices } from './public.ts';
import { QueueRepository } from './queue.repository.ts';
import { QueueWake } from './queue-wake.ts';
import { RemoteActorsRepository } from './remote-actors.repository.ts';
import { RemoteActorsService } from './remote-actors.service.ts';

/** The largest activity the inboxes take (Mastodon's own limit is about 1 MB too). */
const inboxBodyLimit = 1024 * 1024;

export const federationArea = defineArea({
  name: 'federation',
  needs: ['accounts', 'follows', 'reactions', 'media', 'geography'],
  create(
    { config, transactions, clock, jobs, logger, events, exports, stats },
    { accounts, follows, reactions, media, geography },
  ): FederationServices {
    const actorKeysRepository = new ActorKeysRepository(transactions);
    const remoteActorsRepository = new RemoteActorsRepository(transactions);
    const outboundPostsRepository = new OutboundPostsRepository(transactions);
    events.subscribe('user.erasing', 'inTransaction', 'federation.erase', async ({ userId }) => {
      await actorKeysRepository.eraseUser(userId);
      await remoteActorsRepository.eraseUser(userId);
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
    if (!config.federation.enabled) return { federation: null };

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
    });
    const remoteActors = new RemoteActorsService({
      transactions,
      repository: remoteActorsRepository,
      accounts,
      clock,
    });
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
      inbound: { remoteActors, follows: follows.follows, users: accounts.users, reactions: reactions.reactions },
      outbound: {
        posts,
        users: accounts.users,
        follows: follows.follows,
        media: media.media,
        outboundPosts: outboundPostsRepository,
      },
    });
    subscribeOutbound({ events, transactions, logger, postSync, federation });
    let stopped = false;
    jobs.register('federation-queue', {
      schedule: everyMinutes(1),
      run: async () => {
        const posts = await postSync.runDue(
          (activity) => federation.sendPostActivity(activity, clock.now()),
          () => stopped,
        );
        const report = await federation.drainQueue(() => stopped);
        // The posts' figures only when a post was due (most runs deliver only).
        const sentPosts = Object.values(posts).some((count) => count > 0) ? { posts } : {};
        return { ...report, ...sentPosts, expiredEntries: await kvRepository.deleteExpired(clock.now()) };
      },
      stop: () => {
        stopped = true;
      },
    });
    return { federation };
  },
  routes: async (app, { federation }, { config }) => {
    if (federation === null) return;
    await registerFetchBridge(app, {
      exactPaths: federatedPaths.exact,
      prefix: federatedPaths.prefix,
      publicUrl: config.publicUrl,
      bodyLimit: inboxBodyLimit,
      rateLimit: federationRateLimits,
      handle: (request) => federation.fetch(request),
    });
  },
  stop: async ({ federation }) => {
    federation?.stop();
  },
});
