/**
 * A trip's route for the map: positions in time order, longitudes unwrapped so that no leg is longer
 * than half the world (Fiji to Samoa goes east across the antimeridian, not west across Africa),
 * simplified by Douglas–Peucker, then written as RFC 7946 GeoJSON (cut at the antimeridian).
 */
import type { Position } from './geodesy.ts';

/** Douglas–Peucker's tolerance, in degrees (about 50 m at the equator). */
export const routeToleranceDegrees = 0.0005;

/** [longitude, latitude], GeoJSON's order; longitudes may leave [-180, 180] once unwrapped. */
export type LonLat = [number, number];

export type RouteGeometry =
  | { type: 'Point'; coordinates: LonLat }
  | { type: 'LineString'; coordinates: LonLat[] }
  | { type: 'MultiLineString'; coordinates: LonLat[][] };

/** Each longitude moved by whole turns to within 180° of the previous one. */
export function unwrapped(positions: readonly Position[]): LonLat[] {
  const line: LonLat[] = [];
  let previous: number | null = null;
  for (const { latitude, longitude } of positions) {
    let lon = longitude;
    if (previous !== null) lon += 360 * Math.round((previous - lon) / 360);
    line.push([lon, latitude]);
    previous = lon;
  }
  return line;
}

/** Douglas–Peucker on the plane of (unwrapped) degrees; the first and last points always stay. */
export function simplified(line: readonly LonLat[], tolerance = routeToleranceDegrees): LonLat[] {
  if (line.length <= 2) return [...line];
  const keep = new Array<boolean>(line.length).fill(false);
  keep[0] = true;
  keep[line.length - 1] = true;
  const stack: [number, number][] = [[0, line.length - 1]];
  for (let span = stack.pop(); span !== undefined; span = stack.pop()) {
    const [first, last] = span;
    let farthest = -1;
    let farthestDistance = tolerance;
    for (let i = first + 1; i < last; i += 1) {
      const distance = distanceToSegment(at(line, i), at(line, first), at(line, last));
      if (distance > farthestDistance) {
        farthest = i;
        farthestDistance = distance;
      }
    }
    if (farthest >= 0) {
      keep[farthest] = true;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  return line.filter((_, i) => keep[i]);
}

/** The route's geometry: a Point for one place, else a LineString, or a MultiLineString cut at ±180°. */
export function routeGeometry(positions: readonly Position[]): RouteGeometry | null {
  const line = withoutRepeats(simplified(unwrapped(positions)));
  const [first] = line;
  if (first === undefined) return null;
  if (line.length === 1) return { type: 'Point', coordinates: normalised(first) };
  const parts = cutAtAntimeridian(line);
  const [only] = parts;
  return parts.length === 1 && only !== undefined
    ? { type: 'LineString', coordinates: only }
    : { type: 'MultiLineString', coordinates: parts };
}

/**
 * Splits an unwrapped line where it crosses a multiple of ±180°, at the interpolated crossing, and
 * brings every part back into [-180, 180].
 */
function cutAtAntimeridian(line: readonly LonLat[]): LonLat[][] {
  const parts: LonLat[][] = [];
  let part: LonLat[] = [];
  let previous: LonLat | undefined;
  for (const point of line) {
    if (previous !== undefined) {
      const from = worldOf(previous[0]);
      const to = worldOf(point[0]);
      if (from !== to) {
        const edge = 180 + 360 * Math.min(from, to);
        const ratio = (edge - previous[0]) / (point[0] - previous[0]);
        const latitude = previous[1] + ratio * (point[1] - previous[1]);
        part.push(normalised([edge, latitude], from));
        parts.push(part);
        part = [normalised([edge, latitude], to)];
      }
    }
    part.push(normalised(point));
    previous = point;
  }
  parts.push(part);
  return parts.filter((p) => p.length >= 2);
}

/** Which copy of the world a longitude is in: 0 for [-180, 180), 1 for [180, 540)… */
const worldOf = (lon: number) => Math.floor((lon + 180) / 360);

/** The longitude brought back into [-180, 180]; on the edge, the side of the world it belongs to. */
function normalised([lon, lat]: LonLat, world = worldOf(lon)): LonLat {
  const back = lon - 360 * world;
  return [back === -180 && world !== worldOf(lon) ? 180 : round(back), round(lat)];
}

const round = (degrees: number) => Math.round(degrees * 1e6) / 1e6;

function withoutRepeats(line: readonly LonLat[]): LonLat[] {
  return line.filter((point, i) => {
    const before = line[i - 1];
    return before === undefined || before[0] !== point[0] || before[1] !== point[1];
  });
}

function at(line: readonly LonLat[], i: number): LonLat {
  const point = line[i];
  if (point === undefined) throw new RangeError(`no point ${i}`);
  return point;
}

function distanceToSegment([x, y]: LonLat, [x1, y1]: LonLat, [x2, y2]: LonLat): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / length));
  return Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy));
}
