/** A tiny per-key async mutex: waiters queue in order; tryRun gives up at once when the key is held. */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();

  isHeld(key: string): boolean {
    return this.#tails.has(key);
  }

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.#tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  async tryRun<T>(key: string, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    if (this.isHeld(key)) return { ran: false };
    return { ran: true, value: await this.run(key, fn) };
  }
}
