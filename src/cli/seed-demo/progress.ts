/**
 * seed:demo's progress bar: one plain-text line for the whole run, each step weighted by its share
 * of the work, redrawn at most every 100 ms (and at every step's start and end).
 */

const width = 30;

export function seedProgressLine(fraction: number, step: string, done: number, total: number): string {
  const clamped = Math.max(0, Math.min(1, fraction));
  const filled = Math.round(clamped * width);
  return `seed:demo [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(clamped * 100)}% ${step} ${done}/${total}`;
}

export class SeedProgress {
  readonly #show: ((line: string) => void) | undefined;
  readonly #weights: Record<string, number>;
  readonly #totalWeight: number;
  #before = 0;
  #last = -Infinity;

  /** `weights`: every step's name and its share of the run (any positive numbers). */
  constructor(show: ((line: string) => void) | undefined, weights: Record<string, number>) {
    this.#show = show;
    this.#weights = weights;
    this.#totalWeight = Object.values(weights).reduce((sum, weight) => sum + weight, 0);
  }

  /** A counter for one step; call it with (done, total) as the step goes, and it ends the step at done === total. */
  step(name: string): (done: number, total: number) => void {
    const weight = this.#weights[name] ?? 0;
    const start = this.#before;
    return (done, total) => {
      const share = total === 0 ? 1 : done / total;
      const now = performance.now();
      const ended = done >= total;
      if (ended) this.#before = start + weight;
      if (this.#show === undefined || (!ended && done > 0 && now - this.#last < 100)) return;
      this.#last = now;
      this.#show(seedProgressLine((start + weight * share) / this.#totalWeight, name, done, total));
    };
  }
}
