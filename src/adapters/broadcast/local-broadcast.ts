/** Broadcast within this process: the whole service when it runs on embedded PGlite (one process). */
import type { Broadcast } from './broadcast.ts';
import { Subscribers } from './subscribers.ts';

export class LocalBroadcast implements Broadcast {
  readonly #subscribers = new Subscribers();

  async publish(channel: string, message: string): Promise<void> {
    this.#subscribers.deliver(channel, message);
  }

  /** Never a gap: nothing stands between publisher and subscriber. */
  subscribe(channel: string, onMessage: (message: string) => void, onGap: () => void): void {
    this.#subscribers.add(channel, onMessage, onGap);
  }

  async close(): Promise<void> {
    this.#subscribers.clear();
  }
}
