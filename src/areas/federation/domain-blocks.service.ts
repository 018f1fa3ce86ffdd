/**
 * Operators' domain blocks (docs/api.md, Federation; docs/operations.md, Moderation of federation). A
 * block covers the domain and its subdomains (domain-names.ts), whatever the port.
 * - `reject` (Mastodon's suspend): the inboxes refuse the domain's deliveries and any activity whose
 *   actor is on it (403, before a key is fetched: domain-blocks.inbox-gate.ts), nothing is delivered
 *   to it (the message queue drops its deliveries), its actors are never fetched, and the actors known
 *   here lose every follow both ways and are banned as a local user is (their likes, comments and
 *   notifications hidden), with the reason `domainBanReason(domain)`. Lifting the block (or making it
 *   a silence) lifts those bans, and only those; the follows do not come back.
 * - `silence` (Mastodon's limit): the domain's actors reach only the local users who follow them
 *   (inbound/silenced-actors.ts): a Follow of anyone else is answered Reject, a Like or a reply of a
 *   post whose owner does not follow the actor is ignored, so no notification reaches a stranger.
 * Every change is audited in its transaction.
 */
import type { AuditLog } from '../../platform/audit/audit-log.ts';
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { coveringDomains, domainOfHost } from '../../platform/text/domain-names.ts';
import { type AccountsServices, requireDomain } from '../accounts/public.ts';
import type { FollowsService } from '../follows/public.ts';
import type { DomainBlockList } from './domain-block-list.ts';
import type { DomainBlocksRepository } from './domain-blocks.repository.ts';
import type { DomainBlockRow, DomainBlockSeverity } from './tables.ts';

export interface DomainBlockInput {
  domain: string;
  severity: DomainBlockSeverity;
  publicReason?: string | null;
  privateReason?: string | null;
}

export interface DomainBlocksServiceDeps {
  transactions: Transactions;
  repository: DomainBlocksRepository;
  accounts: Pick<AccountsServices, 'domainBlocks' | 'moderation'>;
  follows: FollowsService;
  audit: AuditLog;
  clock: Clock;
  /** The blocks in force, held in memory and forgotten everywhere on a change. */
  list: DomainBlockList;
}

/** The ban reason of an actor banned by its domain's rejection (lifted with the block). */
export const domainBanReason = (domain: string) => `Domain rejected by the operators: ${domain}`;

/** The longest reason kept. */
export const domainBlockReasonMaxLength = 1000;

const cleanReason = (text: string | null | undefined) => {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

export class DomainBlocksService {
  readonly #deps: DomainBlocksServiceDeps;

  constructor(deps: DomainBlocksServiceDeps) {
    this.#deps = deps;
  }

  list(page: PageRequest): Promise<DomainBlockRow[]> {
    return this.#deps.repository.list(page);
  }

  /** Blocks a domain, or changes its block; `created` false when it was blocked already. */
  async put(input: DomainBlockInput): Promise<{ block: DomainBlockRow; created: boolean }> {
    const domain = requireDomain(input.domain, { pointer: '/domain' });
    const now = this.#deps.clock.now();
    const { block, before } = await this.#deps.transactions.run(async () => {
      const before = await this.#deps.repository.find(domain);
      const block: DomainBlockRow = {
        domain,
        severity: input.severity,
        publicReason: cleanReason(input.publicReason),
        privateReason: cleanReason(input.privateReason),
        createdAt: before?.createdAt ?? now,
        updatedAt: now,
      };
      await this.#deps.repository.upsert(block);
      await this.#deps.list.changed();
      await this.#deps.audit.record({
        actor: 'admin',
        action: before === null ? 'federation.domainBlock.create' : 'federation.domainBlock.update',
        targetType: 'domain',
        targetId: domain,
        payload: { severity: block.severity, previousSeverity: before?.severity ?? null },
      });
      return { block, before };
    });
    if (block.severity === 'reject') await this.#suspendActorsOf(domain);
    else if (before?.severity === 'reject') await this.#restoreActorsOf(domain);
    return { block, created: before === null };
  }

  /** Lifts a block (404 when there is none); what a rejection removed does not come back but its bans. */
  async remove(input: string): Promise<void> {
    const domain = requireDomain(input, { parameter: 'domain' });
    const removed = await this.#deps.transactions.run(async () => {
      const before = await this.#deps.repository.find(domain);
      if (before === null || !(await this.#deps.repository.delete(domain))) return null;
      await this.#deps.list.changed();
      await this.#deps.audit.record({
        actor: 'admin',
        action: 'federation.domainBlock.delete',
        targetType: 'domain',
        targetId: domain,
        payload: { severity: before.severity },
      });
      return before;
    });
    if (removed === null) throw new AppError('notFound', { source: { parameter: 'domain' }, detail: 'no such block' });
    if (removed.severity === 'reject') await this.#restoreActorsOf(domain);
  }

  /** The block in force for a host (`host[:port]`, its parents' blocks included), the most severe. */
  async severityOf(host: string): Promise<DomainBlockSeverity | null> {
    const severities = await this.#deps.list.severities();
    if (severities.size === 0) return null;
    const blocks = coveringDomains(domainOfHost(host)).flatMap((domain) => severities.get(domain) ?? []);
    if (blocks.includes('reject')) return 'reject';
    return blocks.length > 0 ? 'silence' : null;
  }

  /** Whether the host is on a rejected domain. */
  async rejects(host: string): Promise<boolean> {
    return (await this.severityOf(host)) === 'reject';
  }

  /** Each known actor of the domain: follows removed both ways, banned (one transaction per actor). */
  async #suspendActorsOf(domain: string): Promise<void> {
    const { accounts, follows, transactions } = this.#deps;
    for (const user of await accounts.domainBlocks.remoteUsersOn(domain)) {
      await transactions
        .run(async () => {
          await follows.removeAllOf(user.id);
          if (user.banReason === null) {
            await accounts.moderation.ban(user.id, { reason: domainBanReason(domain), until: null }, 'admin');
          }
        })
        .catch((error: unknown) => {
          // An actor erased meanwhile has nothing left to suspend.
          if (!(error instanceof AppError && error.code === 'notFound')) throw error;
        });
    }
  }

  /** The bans the domain's rejection made, lifted. */
  async #restoreActorsOf(domain: string): Promise<void> {
    const { accounts } = this.#deps;
    for (const user of await accounts.domainBlocks.remoteUsersOn(domain)) {
      if (user.banReason === domainBanReason(domain)) await accounts.moderation.unban(user.id, 'admin');
    }
  }
}
