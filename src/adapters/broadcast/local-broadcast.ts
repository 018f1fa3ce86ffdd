/** Broadcast within this process: the whole service when it runs on embedded PGlite (one process). */
import type { Broadcast } from './broadcast.ts';

export class LocalBroadcast implements Broadcast {
  readonly #handlers = new Map<string, Array<(message: string) => void>>();

  async publish(channel: string, message: string): Promise<void> {
    for (const handler of this.#handlers.get(channel) ?? []) handler(message);
  }

  subscribe(channel: string, onMessage: (message: string) => void): void {
    this.#handlers.set(channel, [...(this.#handlers.get(channel) ?? []), onMessage]);
  }

  async close(): Promise<void> {
    this.#handlers.clear();
  }
}
