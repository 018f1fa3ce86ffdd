/** Great-circle distances on a spherical earth: the haversine needs no care at the antimeridian. */

export interface Position {
  latitude: number;
  longitude: number;
}

/** The mean earth radius (IUGG), in metres. */
const earthRadiusMetres = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

export function greatCircleMetres(a: Position, b: Position): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * earthRadiusMetres * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The length of a path through the positions in order. */
export function routeMetres(positions: readonly Position[]): number {
  let total = 0;
  for (let i = 1; i < positions.length; i += 1) {
    const from = positions[i - 1];
    const to = positions[i];
    if (from !== undefined && to !== undefined) total += greatCircleMetres(from, to);
  }
  return total;
}
