/**
 * The rule that groups a user's placed photos into trips (docs/api.md, Trips): a photo more than
 * `awayMetres` from home is away; away photos in time order form one trip until the next is taken
 * more than `homeGapHours` after the last with a photo at home between them (days at home), or more
 * than `silentGapDays` after it with none (days without photos).
 */
import { greatCircleMetres, type Position } from './geodesy.ts';

export const tripRule = { awayMetres: 100_000, homeGapHours: 48, silentGapDays: 5 } as const;

export interface PlacedPhoto extends Position {
  id: string;
  /** The capture time, else the upload time. */
  time: Date;
}

const hour = 3_600_000;

/** The trips among the photos (any order), each in time order, oldest trip first; none without a home. */
export function groupTrips<P extends PlacedPhoto>(photos: readonly P[], home: Position | null): P[][] {
  if (home === null) return [];
  const trips: P[][] = [];
  let current: P[] = [];
  let last: P | undefined;
  let homeSinceLast = false;
  for (const photo of [...photos].sort(byTime)) {
    if (greatCircleMetres(home, photo) <= tripRule.awayMetres) {
      homeSinceLast = true;
      continue;
    }
    if (last !== undefined) {
      const gap = photo.time.getTime() - last.time.getTime();
      const ends = homeSinceLast ? gap > tripRule.homeGapHours * hour : gap > tripRule.silentGapDays * 24 * hour;
      if (ends) {
        trips.push(current);
        current = [];
      }
    }
    current.push(photo);
    last = photo;
    homeSinceLast = false;
  }
  if (current.length > 0) trips.push(current);
  return trips;
}

/** Time order, then id, so photos of one second keep one order. */
export function byTime(a: { time: Date; id: string }, b: { time: Date; id: string }): number {
  return a.time.getTime() - b.time.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The home of a user without a home position or birth city: the city most of their photos were taken
 * in (ties: the one photographed first), or null when none of their photos is in a known city.
 */
export function mostPhotographedCity(
  photos: readonly { cityId: string | null; time: Date; id: string }[],
): string | null {
  const counts = new Map<string, number>();
  for (const photo of [...photos].sort(byTime)) {
    if (photo.cityId !== null) counts.set(photo.cityId, (counts.get(photo.cityId) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [cityId, count] of counts) {
    if (count > bestCount) {
      best = cityId;
      bestCount = count;
    }
  }
  return best;
}
