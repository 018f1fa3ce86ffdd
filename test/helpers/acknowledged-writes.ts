/**
 * Writes whose every acknowledgement can be checked afterwards, for fault tests and the drill: each
 * write creates a bookmark collection with a name of its own for one signed-in writer, so what was
 * acknowledged (201), attempted, and found later can be compared name by name.
 */

/** How many collections a user may have (bookmarks' collectionsPerUser): a writer's budget. */
export const writesPerWriter = 100;

export type WriteOutcome =
  | { kind: 'acknowledged' }
  /** Any other answer: its status, body and Retry-After header. */
  | { kind: 'refused'; status: number; body: string; retryAfter: string | null }
  /** No answer at all (the connection broke, or it hung past the client's patience). */
  | { kind: 'unanswered'; reason: string };

export class Writer {
  readonly acknowledged = new Set<string>();
  readonly attempted = new Set<string>();
  readonly #token: string;
  readonly #headers: Record<string, string>;
  #next = 0;

  /** `headers`: added to every request (e.g. X-Forwarded-For, so a writer has an address of its own). */
  constructor(token: string, headers: Record<string, string> = {}) {
    this.#token = token;
    this.#headers = headers;
  }

  get spent(): number {
    return this.attempted.size;
  }

  /** One write through the server at `base`. */
  async write(base: string): Promise<WriteOutcome> {
    const name = `w-${this.#next++}`;
    this.attempted.add(name);
    let response: Response;
    try {
      response = await fetch(`${base}/api/users/me/bookmarks/collections`, {
        method: 'POST',
        headers: { ...this.#headers, authorization: `Bearer ${this.#token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
        // Only ends a request that would otherwise hang (the server must answer, not keep it waiting).
        signal: AbortSignal.timeout(20_000),
      });
    } catch (error) {
      return { kind: 'unanswered', reason: `${name}: ${(error as Error).message}` };
    }
    const body = await response.text();
    if (response.status === 201) {
      this.acknowledged.add(name);
      return { kind: 'acknowledged' };
    }
    return {
      kind: 'refused',
      status: response.status,
      body: body.slice(0, 300),
      retryAfter: response.headers.get('retry-after'),
    };
  }

  /** The names found through the server at `base` now. */
  async found(base: string): Promise<string[]> {
    const response = await fetch(`${base}/api/users/me/bookmarks/collections?limit=${writesPerWriter}`, {
      headers: { ...this.#headers, authorization: `Bearer ${this.#token}` },
    });
    if (response.status !== 200) throw new Error(`listing the writes: ${response.status} ${await response.text()}`);
    const { data } = (await response.json()) as { data: { attributes: { name: string } }[] };
    return data.map((item) => item.attributes.name);
  }

  /** What `found` says of the writes: acknowledged ones missing, names found twice, names never attempted. */
  check(found: string[]): { lost: string[]; twice: number; unknown: string[] } {
    return {
      lost: [...this.acknowledged].filter((name) => !found.includes(name)),
      twice: found.length - new Set(found).size,
      unknown: found.filter((name) => !this.attempted.has(name)),
    };
  }
}
