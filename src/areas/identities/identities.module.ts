/**
 * Identities: sign-in with an identity provider (Google, Apple, Facebook), and the identities linked
 * to an account (link, list, unlink). Needs accounts (accounts are created, sessions opened and users
 * read through its services). Provider clients: src/adapters/identity. Table: user_identities.
 */
import { createIdentityProviders } from '../../adapters/identity/index.ts';
import { byId, mapped } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { IdentitiesRepository } from './identities.repository.ts';
import { identitiesRoutes } from './identities.routes.ts';
import { IdentitiesService } from './identities.service.ts';
import { exportIdentity } from './presenters.ts';

export const identitiesArea = defineArea({
  name: 'identities',
  needs: ['accounts'],
  create({ transactions, events, clock, config, logger, exports }, { accounts }) {
    const identities = new IdentitiesService({
      transactions,
      repository: new IdentitiesRepository(transactions),
      providers: createIdentityProviders(config.identityProviders, clock),
      accounts,
      clock,
      logger,
    });
    // An erased account keeps no identity, whether an operator erased it or its owner deleted it (the
    // same person may then open a new account with it).
    events.subscribe('user.anonymized', 'inTransaction', 'identities.anonymize', async ({ userId }) => {
      await identities.eraseUser(userId);
    });
    events.subscribe('user.emailConfirmed', 'inTransaction', 'identities.dropUnprovenLinks', async (confirmed) => {
      if (confirmed.proof === 'mail') await identities.dropUnprovenLinks(confirmed.userId);
    });
    events.subscribe('user.erasing', 'inTransaction', 'identities.erase', async ({ userId }) => {
      await identities.eraseUser(userId);
    });
    exports.register({
      name: 'identities',
      description: 'The identity provider accounts (Google, Apple, Facebook) linked to yours, and when.',
      rows: (userId) =>
        mapped(
          byId((after, limit) => identities.exportBatch(userId, after, limit)),
          exportIdentity,
        ),
    });
    return { identities };
  },
  routes: (app, services) => registerRoutes(app, 'account', identitiesRoutes(services)),
});
