/**
 * federation: ActivityPub through Fedify (docs/api.md, Federation; docs/operations.md, Federation).
 * Off by default: with FEDERATION off the area keeps only its erasure and export duties and the
 * operators' domain blocks and delivery health (their admin routes), serves no federated path,
 * registers no job and never loads Fedify. On, the Fastify bridge (platform/http/fetch-bridge.ts)
 * hands Fedify the federated paths, and the job federation-queue drains Fedify's message queue.
 */

import { keysetBatches } from '../../platform/exports/keyset-batches.ts';
import { registerFetchBridge } from '../../platform/http/fetch-bridge.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { everyMinutes } from '../../platform/jobs/jobs.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { lazyServerSecret } from '../../platform/secrets/server-secret.ts';
import { ActorKeysRepository } from './actor-keys.repository.ts';
import { ActorKeysService } from './actor-keys.service.ts';
import { federatedPaths } from './actor-paths.ts';
import { DatabaseKvStore } from './database-kv-store.ts';
import { DatabaseMessageQueue } from './database-message-queue.ts';
import { deliveryHealthAdminRoutes } from './delivery-health.admin-routes.ts';
import { DeliveryHealthRepository } from './delivery-health.repository.ts';
import { DeliveryHealthService } from './delivery-health.service.ts';
import { domainBlocksAdminRoutes } from './domain-blocks.admin-routes.ts';
import { inboxRefusal } from './domain-blocks.inbox-gate.ts';
import { DomainBlocksRepository } from './domain-blocks.repository.ts';
import { DomainBlocksService } from './domain-blocks.service.ts';
import { FederationRuntime } from './federation-runtime.ts';
import { FederationSecrets } from './federation-secrets.ts';
import { federationRateLimits } from './inbox-rate-limits.ts';
import { KvStoreRepository } from './kv-store.repository.ts';
import type { FederationServices } from './public.ts';
import { QueueRepository } from './queue.repository.ts';
import { QueueWake } from './queue-wake.ts';
import { RemoteActorsRepository } from './remote-actors.repository.ts';
import { RemoteActorsService } from './remote-actors.service.ts';

/** The largest activity the inboxes take (Mastodon's own limit is about 1 MB too). */
const inboxBodyLimit = 1024 * 1024;

export const federationArea = defineArea({
  name: 'federation',
  needs: ['accounts', 'follows', 'media', 'reactions'],
  create(
    { config, transactions, clock, jobs, logger, events, exports, stats, audit },
    { accounts, follows, media, reactions },
  ): FederationServices {
    const actorKeysRepository = new ActorKeysRepository(transactions);
    const remoteActorsRepository = new RemoteActorsRepository(transactions);
    events.subscribe('user.erasing', 'inTransaction', 'federation.erase', async ({ userId }) => {
      await actorKeysRepository.eraseUser(userId);
      await remoteActorsRepository.eraseUser(userId);
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
    const domainBlocks = new DomainBlocksService({
      transactions,
      repository: new DomainBlocksRepository(transactions),
      accounts,
      follows: follows.follows,
      audit,
      clock,
    });
    const deliveryHealth = new DeliveryHealthService({ repository: new DeliveryHealthRepository(transactions), clock });
    const rejects = (host: string) => domainBlocks.rejects(host);
    if (!config.federation.enabled) return { federation: null, domainBlocks, deliveryHealth };

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
      health: deliveryHealth,
    });
    const remoteActors = new RemoteActorsService({
      transactions,
      repository: remoteActorsRepository,
      accounts,
      clock,
      rejects,
    });
    const federation = new FederationRuntime({
      publicUrl: config.publicUrl,
      allowPrivateAddress: config.federation.allowPrivateAddress,
      kv: new DatabaseKvStore({ transactions, repository: kvRepository, clock }),
      queue,
      users: accounts.users,
      actorKeys: new ActorKeysService({ repository: actorKeysRepository, secrets, clock }),
      stats,
      logger,
      remoteActors,
      inbound: {
        remoteActors,
        follows: follows.follows,
        users: accounts.users,
        reactions: reactions.reactions,
        media: media.media,
        domainSeverityOf: (host) => domainBlocks.severityOf(host),
      },
    });
    let stopped = false;
    jobs.register('federation-queue', {
      schedule: everyMinutes(1),
      run: async () => {
        const report = await federation.drainQueue(() => stopped);
        return { ...report, expiredEntries: await kvRepository.deleteExpired(clock.now()) };
      },
      stop: () => {
        stopped = true;
      },
    });
    return { federation, domainBlocks, deliveryHealth };
  },
  routes: async (app, { federation, domainBlocks, deliveryHealth }, { config }) => {
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
    federation?.stop();
  },
});
