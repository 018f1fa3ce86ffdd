/**
 * The bounded queue image renders go through (MEDIA_RENDER_CONCURRENCY at once, the rest wait), so
 * renders never take more than that many threads of the libuv pool and cores: cached files, logins
 * (argon2) and the event loop keep the rest.
 *
 * - One render per key: a second asker of a queued or running render shares it.
 * - Readers go before the media-variants job: a queued job render a reader asks for moves up with them.
 * - A queued render nobody waits for any more is dropped before it starts: each reader holds a ticket
 *   that it gives up when its client closes the connection; a render with no ticket left and no job
 *   behind it leaves the queue. A reader answered 503 keeps its ticket (it was told to come back), so
 *   its render stays queued and is ready when it retries.
 * - At most `maxQueued` renders wait; past that a reader's render is refused at once (queueFull), so
 *   a flood costs a bounded amount of memory. Job renders are not refused (the job adds a few at a time).
 * A render that has started runs to its end: libvips cannot be interrupted.
 */

export type RenderPriority = 'reader' | 'job';

/** Reader renders that may wait at once: a few seconds of work for a small server, a few KB of memory. */
export const defaultMaxQueuedRenders = 200;

export interface RenderQueueCounters {
  running: number;
  queued: number;
  /** The most renders that ever ran at once (the tests hold it to the limit). */
  mostRunning: number;
  started: number;
  /** Queued renders dropped before they started: every reader left and no job asked for them. */
  dropped: number;
  /** Reader renders refused because the queue was full. */
  refused: number;
}

/** A queued render was dropped (nobody waits for it) or refused (the queue is full). */
export class RenderNotQueuedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderNotQueuedError';
  }
}

interface Entry {
  key: string;
  task: () => Promise<void>;
  done: Promise<void>;
  settle: (error?: unknown) => void;
  state: 'queued' | 'running';
  priority: RenderPriority;
  /** Readers waiting whose clients are still connected (or who were answered and told to retry). */
  tickets: number;
  /** A job asked for it: never dropped. */
  forJob: boolean;
}

/** A reader's hold on a render: `done` settles with it; `leave()` when the client has gone. */
export interface RenderTicket {
  done: Promise<void>;
  leave(): void;
}

export class RenderQueue {
  readonly #concurrency: number;
  readonly #maxQueued: number;
  readonly #entries = new Map<string, Entry>();
  /** Queued entries in arrival order; readers' are taken before the job's. */
  #waiting: Entry[] = [];
  #running = 0;
  readonly #counters = { mostRunning: 0, started: 0, dropped: 0, refused: 0 };

  constructor(options: { concurrency: number; maxQueued: number }) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`render concurrency must be a positive integer (got ${options.concurrency})`);
    }
    this.#concurrency = options.concurrency;
    this.#maxQueued = options.maxQueued;
  }

  get concurrency(): number {
    return this.#concurrency;
  }

  counters(): RenderQueueCounters {
    return { running: this.#running, queued: this.#waiting.length, ...this.#counters };
  }

  /** True when a render of this key is queued or running. */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /**
   * A reader asks for the render of `key` (running `task` unless one is queued or running already).
   * Throws RenderNotQueuedError when it is new and the queue is full.
   */
  forReader(key: string, task: () => Promise<void>): RenderTicket {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      if (this.#waiting.length >= this.#maxQueued) {
        this.#counters.refused += 1;
        throw new RenderNotQueuedError('the render queue is full');
      }
      entry = this.#add(key, task, 'reader');
    } else if (entry.state === 'queued' && entry.priority === 'job') {
      entry.priority = 'reader';
    }
    const held = entry;
    held.tickets += 1;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      held.tickets -= 1;
      if (held.tickets === 0 && !held.forJob && held.state === 'queued') this.#drop(held);
    };
    this.#pump();
    return { done: held.done, leave };
  }

  /** The media-variants job asks for the render of `key`: never refused, never dropped. */
  forJob(key: string, task: () => Promise<void>): Promise<void> {
    const entry = this.#entries.get(key) ?? this.#add(key, task, 'job');
    entry.forJob = true;
    this.#pump();
    return entry.done;
  }

  #add(key: string, task: () => Promise<void>, priority: RenderPriority): Entry {
    let settle!: (error?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // A dropped render's promise may have no one left to read it.
    done.catch(() => undefined);
    const entry: Entry = { key, task, done, settle, state: 'queued', priority, tickets: 0, forJob: false };
    this.#entries.set(key, entry);
    this.#waiting.push(entry);
    return entry;
  }

  #drop(entry: Entry) {
    this.#waiting = this.#waiting.filter((other) => other !== entry);
    this.#entries.delete(entry.key);
    this.#counters.dropped += 1;
    entry.settle(new RenderNotQueuedError('every reader of this render left'));
  }

  #pump() {
    while (this.#running < this.#concurrency && this.#waiting.length > 0) {
      const index = this.#waiting.findIndex((entry) => entry.priority === 'reader');
      const [entry] = this.#waiting.splice(index === -1 ? 0 : index, 1);
      if (entry === undefined) return;
      this.#start(entry);
    }
  }

  #start(entry: Entry) {
    entry.state = 'running';
    this.#running += 1;
    this.#counters.started += 1;
    this.#counters.mostRunning = Math.max(this.#counters.mostRunning, this.#running);
    // The task starts on a later tick, so a caller that queued it can still attach to `done` first.
    void Promise.resolve()
      .then(entry.task)
      .then(
        () => undefined,
        (error: unknown) => error ?? new Error('render failed'),
      )
      .then((error) => {
        // Off the books before the waiters hear of it, so one that asks again starts a new render.
        this.#running -= 1;
        this.#entries.delete(entry.key);
        entry.settle(error);
        this.#pump();
      });
  }
}
