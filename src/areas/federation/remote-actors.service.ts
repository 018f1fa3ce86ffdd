/**
 * The remote actors federation knows, and their local shadow users (docs/development.md, Federation):
 * an actor is fetched (through Fedify's document loader, which honours
 * FEDERATION_ALLOW_PRIVATE_ADDRESS) the first time it acts here, then kept in
 * federation_remote_actors and fetched again when its copy is older than `refreshAfterMs`. Its name
 * and summary arrive as plain text (plain-text.ts). Its `Delete` erases the shadow as an account is
 * erased (every area drops its rows and repairs its counters).
 */
import type { Clock } from '../../platform/clock.ts';
import type { Transactions } from '../../platform/db/transactions.ts';
import type { AccountsServices } from '../accounts/public.ts';
import type { RemoteActorsRepository } from './remote-actors.repository.ts';
import type { RemoteActorRow } from './tables.ts';

/** A day: a remote actor's name, inbox or keys seldom change, and an activity of theirs refreshes it. */
export const refreshAfterMs = 24 * 60 * 60 * 1000;

/** What the service keeps of a fetched actor (inbound/actor-profile.ts makes it from the document). */
export interface RemoteActorProfile {
  uri: string;
  /** `name@host` (the actor's preferredUsername at the host of its id). */
  handle: string;
  /** Plain text, or null. */
  name: string | null;
  summary: string | null;
  inbox: string;
  sharedInbox: string | null;
  /** The actor's avatar (`icon`): an http(s) URL, or null. */
  avatarUrl?: string | null;
}

export interface RemoteActorsServiceDeps {
  transactions: Transactions;
  repository: RemoteActorsRepository;
  accounts: Pick<AccountsServices, 'accounts' | 'deletion' | 'users'>;
  clock: Clock;
  /** Whether a host is on a domain operators reject: its actors are never fetched nor kept. */
  rejects(host: string): Promise<boolean>;
}

const hostOf = (uri: string) => {
  try {
    return new URL(uri).host;
  } catch {
    return null;
  }
};

export class RemoteActorsService {
  readonly #deps: RemoteActorsServiceDeps;

  constructor(deps: RemoteActorsServiceDeps) {
    this.#deps = deps;
  }

  /**
   * The actor's row, fetched when unknown or older than a day; a failed refetch keeps the copy in
   * hand. Null when the actor is unknown and cannot be fetched (or is not an actor), or on a rejected
   * domain (domain-blocks.service.ts).
   */
  async resolve(uri: string, fetch: () => Promise<RemoteActorProfile | null>): Promise<RemoteActorRow | null> {
    const host = hostOf(uri);
    if (host === null || (await this.#deps.rejects(host))) return null;
    const known = await this.#deps.repository.find(uri);
    if (known !== null && this.#deps.clock.now().getTime() - known.fetchedAt.getTime() < refreshAfterMs) return known;
    const profile = await fetch();
    if (profile === null || profile.uri !== uri) return known;
    return this.save(profile);
  }

  /** Whether a host is on a domain operators reject: none of its actors is fetched nor kept. */
  rejectsHost(host: string): Promise<boolean> {
    return this.#deps.rejects(host);
  }

  /**
   * The actor of an incoming activity: as `resolve`, but null when its shadow is banned or being
   * deleted, so a banned remote actor's activities are refused as a banned local user's writes are.
   */
  async resolveActing(uri: string, fetch: () => Promise<RemoteActorProfile | null>): Promise<RemoteActorRow | null> {
    return this.#acting(await this.resolve(uri, fetch));
  }

  /**
   * The known actor of an incoming activity that takes back or answers (Undo, Delete, Accept, Reject;
   * never fetched): null when unknown, on a rejected domain, or when its shadow is banned or being
   * deleted, so such an actor changes nothing here (a banned actor's Delete of itself leaves the ban).
   */
  async findActing(uri: string): Promise<RemoteActorRow | null> {
    const host = hostOf(uri);
    if (host === null || (await this.#deps.rejects(host))) return null;
    return this.#acting(await this.#deps.repository.find(uri));
  }

  async #acting(row: RemoteActorRow | null): Promise<RemoteActorRow | null> {
    return row !== null && (await this.#deps.accounts.users.findVisible(row.userId)) !== null ? row : null;
  }

  /** Keeps a fetched actor: its shadow user made the first time, renamed afterwards. */
  async save(profile: RemoteActorProfile): Promise<RemoteActorRow> {
    const { accounts } = this.#deps.accounts;
    return this.#deps.transactions.run(async () => {
      const fields = {
        inbox: profile.inbox,
        sharedInbox: profile.sharedInbox,
        summary: profile.summary,
        avatarUrl: profile.avatarUrl ?? null,
        fetchedAt: this.#deps.clock.now(),
      };
      const known = await this.#deps.repository.find(profile.uri);
      if (known !== null) {
        await accounts.updateRemoteUser(known.userId, { handle: profile.handle, nickname: profile.name });
        await this.#deps.repository.refresh(profile.uri, fields);
        return { ...known, ...fields };
      }
      // A second activity of a new actor racing this one fails on the primary key and is retried by
      // the queue, which then finds the row.
      const user = await accounts.createRemoteUser({ handle: profile.handle, nickname: profile.name });
      const row = { actorUri: profile.uri, userId: user.id, ...fields };
      await this.#deps.repository.insert(row);
      return row;
    });
  }

  /** The known actor (no fetch), or null. */
  find(uri: string): Promise<RemoteActorRow | null> {
    return this.#deps.repository.find(uri);
  }

  /** The actor whose shadow the user is, or null for a local user. */
  ofUser(userId: string): Promise<RemoteActorRow | null> {
    return this.#deps.repository.ofUser(userId);
  }

  /** The actor's `Delete`: its shadow erased with everything it did here. False when unknown. */
  async erase(uri: string): Promise<boolean> {
    const known = await this.#deps.repository.find(uri);
    return known !== null && this.#deps.accounts.deletion.eraseRemote(known.userId);
  }
}
