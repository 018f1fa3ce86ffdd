/**
 * Counts of public media by country and by city, kept a minute per instance: a GROUP BY over every
 * public media is the most expensive read of the pages, and anyone can ask for it. Keys are bounded
 * (the world, or one existing country), each is computed once at a time, and at most two at once.
 */
import type { Purgeable } from '../../platform/cache/cache-registry.ts';
import { TtlCache } from '../../platform/cache/ttl-cache.ts';
import type { Clock } from '../../platform/clock.ts';
import { Slots } from '../../platform/concurrency/slots.ts';
import type { CountryCount, PlaceCount, WebRepository } from './web.repository.ts';

export const placeCountsKept = { seconds: 60, entries: 400, computedAtOnce: 2, places: 200, countries: 300 } as const;

export class PlaceCounts {
  readonly #repository: WebRepository;
  readonly #cache: TtlCache<string, PlaceCount[] | CountryCount[]>;
  readonly #computing = new Map<string, Promise<PlaceCount[] | CountryCount[]>>();
  readonly #slots = new Slots(placeCountsKept.computedAtOnce);

  constructor(repository: WebRepository, clock: Clock) {
    this.#repository = repository;
    this.#cache = new TtlCache(clock, placeCountsKept.seconds * 1000, placeCountsKept.entries);
  }

  get cache(): Purgeable {
    return this.#cache;
  }

  /** Cities with public media (of an existing country, or everywhere), most first. */
  places(countryCode: string | null): Promise<PlaceCount[]> {
    return this.#kept(`places:${countryCode ?? '*'}`, () =>
      this.#repository.placeCounts(countryCode, placeCountsKept.places),
    ) as Promise<PlaceCount[]>;
  }

  /** Countries with public media, most first. */
  countries(): Promise<CountryCount[]> {
    return this.#kept('countries', () => this.#repository.countryCounts(placeCountsKept.countries)) as Promise<
      CountryCount[]
    >;
  }

  #kept(key: string, compute: () => Promise<PlaceCount[] | CountryCount[]>) {
    const cached = this.#cache.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let computing = this.#computing.get(key);
    if (computing === undefined) {
      computing = this.#slots
        .run(compute)
        .then((rows) => {
          this.#cache.set(key, rows);
          return rows;
        })
        .finally(() => this.#computing.delete(key));
      this.#computing.set(key, computing);
    }
    return computing;
  }
}
