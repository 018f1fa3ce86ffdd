/**
 * How follows reaches accounts of other servers (docs/api.md, Federation): a follow of a remote
 * account's shadow user is a request to its server, stored as a follow only once that server accepts.
 * Follows cannot need federation (federation needs follows), so federation registers itself here in
 * its `create` when FEDERATION is on; off, following a remote account is 409 federationOff.
 */

export interface RemoteFollowRequest {
  state: 'pending' | 'accepted';
  requestedAt: Date;
}

export interface RemoteFollowing {
  /** Sends the remote account a Follow; the follow is stored when it accepts. */
  request(followerId: string, remoteUserId: string): Promise<RemoteFollowRequest>;
  /** The follow (asked or accepted) withdrawn: the remote account is told (Undo). */
  withdraw(followerId: string, remoteUserId: string): Promise<void>;
  /** When the follower asked to follow the remote account, still unanswered; else null. */
  pendingSince(followerId: string, remoteUserId: string): Promise<Date | null>;
}

export class RemoteFollowingGate {
  #current: RemoteFollowing | null = null;

  register(remoteFollowing: RemoteFollowing): void {
    this.#current = remoteFollowing;
  }

  /** The registered federation, or null while FEDERATION is off. */
  get current(): RemoteFollowing | null {
    return this.#current;
  }
}
