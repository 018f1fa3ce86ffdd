/**
 * The latitude band and longitude ranges that hold every point within `metres` of a centre, for a
 * plain btree index on (latitude, longitude): building one costs a fraction of a GiST index over
 * ll_to_earth (seconds on the embedded engine at first start), and a band of ±0.25° holds a few
 * hundred cities at most. A box that passes the antimeridian is two longitude ranges; near a pole,
 * every longitude.
 */
import type { LongitudeSpans } from '../../platform/db/longitude-spans.ts';

const metresPerDegree = 111_195; // earthdistance's sphere (radius 6,378,168 m) is a little larger: a superset
const margin = 1.01;

export interface DegreeBox {
  southLatitude: number;
  northLatitude: number;
  /** Two longitude ranges (the same twice when the box does not pass the antimeridian). */
  west1: number;
  east1: number;
  west2: number;
  east2: number;
}

/** Which statements read the box (platform/db/longitude-spans.ts): two ranges only across the antimeridian. */
export const spansOf = (box: DegreeBox): LongitudeSpans =>
  box.west1 === box.west2 && box.east1 === box.east2 ? 'oneSpan' : 'twoSpans';

export function degreeBoxAround(latitude: number, longitude: number, metres: number): DegreeBox {
  const latitudeDelta = (metres / metresPerDegree) * margin;
  const southLatitude = Math.max(-90, latitude - latitudeDelta);
  const northLatitude = Math.min(90, latitude + latitudeDelta);
  const widest = Math.max(Math.abs(southLatitude), Math.abs(northLatitude));
  const longitudeDelta = widest >= 89.9 ? 180 : latitudeDelta / Math.cos((widest * Math.PI) / 180);
  if (longitudeDelta >= 180) return { southLatitude, northLatitude, west1: -180, east1: 180, west2: -180, east2: 180 };
  const west = longitude - longitudeDelta;
  const east = longitude + longitudeDelta;
  if (west < -180) return { southLatitude, northLatitude, west1: west + 360, east1: 180, west2: -180, east2: east };
  if (east > 180) return { southLatitude, northLatitude, west1: west, east1: 180, west2: -180, east2: east - 360 };
  return { southLatitude, northLatitude, west1: west, east1: east, west2: west, east2: east };
}
