/** The subscriptions a broadcast transport serves, by full channel name. */
export class Subscribers {
  readonly #byChannel = new Map<string, { onMessage: (message: string) => void; onGap: () => void }[]>();

  /** Adds a subscription; true when it is the channel's first (the transport then subscribes to it). */
  add(channel: string, onMessage: (message: string) => void, onGap: () => void): boolean {
    const existing = this.#byChannel.get(channel);
    this.#byChannel.set(channel, [...(existing ?? []), { onMessage, onGap }]);
    return existing === undefined;
  }

  get channels(): string[] {
    return [...this.#byChannel.keys()];
  }

  deliver(channel: string, message: string): void {
    for (const subscriber of this.#byChannel.get(channel) ?? []) subscriber.onMessage(message);
  }

  /** Messages may have been lost on every channel: each subscriber is told. */
  gap(): void {
    for (const subscribers of this.#byChannel.values()) for (const subscriber of subscribers) subscriber.onGap();
  }

  clear(): void {
    this.#byChannel.clear();
  }
}
