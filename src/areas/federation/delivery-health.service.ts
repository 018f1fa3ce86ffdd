/**
 * Delivery health (docs/operations.md, Delivery health): the message queue's outgoing deliveries per
 * domain (the inbox's host without its port). A delivery that fails for want of the server (no
 * connection, a timeout, a 5xx, 408 or 429) counts a consecutive failure; one it accepts (2xx) clears
 * them and moves `lastSuccessAt`; one it refuses with another 4xx (401, 403, 404, 410 Gone...) changes
 * neither: the server is there, but nothing shows it takes our deliveries. Once a domain has failed `failuresToBackOff` times in a row over at least
 * `failingForMs`, its deliveries are held until `retryAt`, a delay that doubles with each back-off
 * (`firstBackOffMs`, up to `longestBackOffMs`); the first delivery due after it is the probe, whose
 * success ends the back-off. A domain failing for `giveUpAfterMs` (7 days, as Mastodon marks a domain
 * unavailable) has its held deliveries dropped; one probe still goes when each back-off ends.
 * This replaces Fedify's own circuit breaker (turned off in federation-setup.ts): its state lives in
 * the shared database, operators see it (GET /admin/federation/domains), and it keeps the last success.
 */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import type { DeliveryHealthRepository } from './delivery-health.repository.ts';
import type { DomainHealthRow } from './tables.ts';

export const failuresToBackOff = 5;
export const failingForMs = 60 * 60_000;
export const firstBackOffMs = 60 * 60_000;
export const longestBackOffMs = 24 * 60 * 60_000;
export const giveUpAfterMs = 7 * 24 * 60 * 60_000;

/** What the queue does with a delivery to the domain now. */
export type DeliveryDecision = { type: 'send' } | { type: 'hold'; until: Date } | { type: 'drop' };

export type DomainState = 'ok' | 'failing' | 'backedOff' | 'unavailable';

export interface DeliveryHealthServiceDeps {
  repository: DeliveryHealthRepository;
  clock: Clock;
}

/** The longest error text kept. */
const errorMaxLength = 500;

export class DeliveryHealthService {
  readonly #deps: DeliveryHealthServiceDeps;

  constructor(deps: DeliveryHealthServiceDeps) {
    this.#deps = deps;
  }

  async decide(domain: string): Promise<DeliveryDecision> {
    const row = await this.#deps.repository.find(domain);
    const now = this.#deps.clock.now().getTime();
    if (row?.retryAt == null || row.retryAt.getTime() <= now) return { type: 'send' };
    return givenUp(row, now) ? { type: 'drop' } : { type: 'hold', until: row.retryAt };
  }

  recordSuccess(domain: string): Promise<void> {
    return this.#deps.repository.recordSuccess(domain, this.#deps.clock.now());
  }

  async recordFailure(domain: string, error: string): Promise<void> {
    const now = this.#deps.clock.now();
    const { repository } = this.#deps;
    const row = await repository.recordFailure(domain, now, error.slice(0, errorMaxLength));
    const failingFor = now.getTime() - (row.failingSince?.getTime() ?? now.getTime());
    if (row.consecutiveFailures < failuresToBackOff || failingFor < failingForMs) return;
    const delay = Math.min(longestBackOffMs, firstBackOffMs * 2 ** row.backoffs);
    await repository.backOff(domain, row.backoffs + 1, new Date(now.getTime() + delay));
  }

  list(page: PageRequest): Promise<DomainHealthRow[]> {
    return this.#deps.repository.list(page);
  }

  /** The state operators see. */
  stateOf(row: DomainHealthRow): DomainState {
    const now = this.#deps.clock.now().getTime();
    if (row.consecutiveFailures === 0) return 'ok';
    if (givenUp(row, now)) return 'unavailable';
    return row.retryAt !== null && row.retryAt.getTime() > now ? 'backedOff' : 'failing';
  }
}

const givenUp = (row: DomainHealthRow, now: number) =>
  row.failingSince !== null && row.retryAt !== null && now - row.failingSince.getTime() >= giveUpAfterMs;
