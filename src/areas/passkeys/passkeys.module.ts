/**
 * Passkeys: WebAuthn credentials registered to accounts, and signing in with one alone. Needs
 * accounts (users read and locked, "confirm it is you", sessions opened through its services).
 * Tables: passkeys, passkey_challenges. Relying party: PUBLIC_URL (relying-party.ts).
 */
import { byId, mapped } from '../../platform/exports/keyset-batches.ts';
import { registerRoutes } from '../../platform/http/route.ts';
import { defineArea } from '../../platform/modules/area-module.ts';
import { ChallengesRepository } from './challenges.repository.ts';
import { Challenges } from './challenges.ts';
import { PasskeySignInService } from './passkey-sign-in.service.ts';
import { PasskeysRepository } from './passkeys.repository.ts';
import { passkeysRoutes } from './passkeys.routes.ts';
import { PasskeysService } from './passkeys.service.ts';
import { exportPasskey } from './presenters.ts';
import { relyingPartyOf } from './relying-party.ts';

export const passkeysArea = defineArea({
  name: 'passkeys',
  needs: ['accounts'],
  create({ transactions, events, clock, config, logger, mail, exports }, { accounts }) {
    const repository = new PasskeysRepository(transactions);
    const challengeRows = new ChallengesRepository(transactions);
    const challenges = new Challenges({ repository: challengeRows, clock });
    const relyingParty = relyingPartyOf(config.publicUrl);
    const passkeys = new PasskeysService({
      transactions,
      repository,
      challenges,
      accounts,
      relyingParty,
      mail,
      clock,
      logger,
    });
    const passkeySignIn = new PasskeySignInService({
      transactions,
      repository,
      challenges,
      accounts,
      relyingParty,
      clock,
      logger,
    });
    // An erased account keeps no passkey (the same authenticator may then register with a new account).
    const erase = async ({ userId }: { userId: string }) => {
      await repository.deleteAllOfUser(userId);
      await challengeRows.deleteAllOfUser(userId);
    };
    events.subscribe('user.anonymized', 'inTransaction', 'passkeys.anonymize', erase);
    events.subscribe('user.erasing', 'inTransaction', 'passkeys.erase', erase);
    exports.register({
      name: 'passkeys',
      description: 'Your passkeys: the name you gave each, when it was added and last used (never its key).',
      rows: (userId) =>
        mapped(
          byId((after, limit) => passkeys.exportBatch(userId, after, limit)),
          exportPasskey,
        ),
    });
    return { passkeys, passkeySignIn };
  },
  routes: (app, services) => registerRoutes(app, 'account', passkeysRoutes(services)),
});
