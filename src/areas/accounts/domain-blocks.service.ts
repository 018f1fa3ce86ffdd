/**
 * A user's own domain blocks (docs/api.md, Blocks and mutes): every remote actor of the domain and its
 * subdomains is to the user as a user they block, through the one rule (read-model.ts `shownTo`,
 * `hiddenFrom`, `blockedEitherWay`). A new block is a block of each actor of the domain known here: the
 * `user.blocked` event for each (follows removed both ways, follow notifications forgotten), both users
 * locked in ascending id as a block locks them. Actors of the domain met later are hidden by the rule.
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { EventBus } from '../../platform/events/domain-events.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { normalizeDomain } from '../../platform/text/domain-names.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { DomainBlocksRepository, RemoteUserOnDomain } from './domain-blocks.repository.ts';
import './events.ts';
import type { UserDomainBlockRow } from './tables.ts';

export interface DomainBlocksServiceDeps {
  transactions: Transactions;
  events: EventBus;
  repository: DomainBlocksRepository;
  accounts: AccountsRepository;
  clock: Clock;
}

/** The domain a request names, normalized (domain-names.ts), or 422 pointing at `source`. */
export function requireDomain(input: string, source: { parameter: string } | { pointer: string }): string {
  const domain = normalizeDomain(input);
  if (domain === null) throw new AppError('validationFailed', { source, detail: 'not a domain name' });
  return domain;
}

const domainParameter = (input: string) => requireDomain(input, { parameter: 'domain' });

export class DomainBlocksService {
  readonly #deps: DomainBlocksServiceDeps;

  constructor(deps: DomainBlocksServiceDeps) {
    this.#deps = deps;
  }

  /** Idempotent; the block as it is. */
  async block(userId: string, input: string): Promise<UserDomainBlockRow> {
    const domain = domainParameter(input);
    const { repository, accounts, events, transactions } = this.#deps;
    return transactions.run(async () => {
      const remote = await repository.remoteUsersOn(domain);
      for (const id of [userId, ...remote.map((user) => user.id)].sort()) await accounts.lockUser(id);
      if (await repository.insert({ userId, domain, createdAt: this.#deps.clock.now() })) {
        for (const user of remote) await events.publish('user.blocked', { blockerId: userId, blockedId: user.id });
      }
      const row = await repository.find(userId, domain);
      if (row === null) throw new Error('user_domain_blocks: the block just written is missing');
      return row;
    });
  }

  /** Idempotent; what the block ended does not come back. */
  async unblock(userId: string, input: string): Promise<void> {
    await this.#deps.repository.delete(userId, domainParameter(input));
  }

  list(userId: string, page: PageRequest): Promise<UserDomainBlockRow[]> {
    return this.#deps.repository.list(userId, page);
  }

  /** The remote (shadow) users of a normalized domain and its subdomains, in id order. */
  remoteUsersOn(domain: string): Promise<RemoteUserOnDomain[]> {
    return this.#deps.repository.remoteUsersOn(domain);
  }
}
