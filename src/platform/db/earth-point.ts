/**
 * A point on the earth as the earthdistance extension's ll_to_earth computes it, computed here so a
 * statement receives it as one value (`$n::earth`). With ll_to_earth($1, $2) in its text, a prepared
 * statement's plan made once computes the centre at every row it reads, and PostgreSQL may prefer to
 * plan the statement again at every execution (measured for nearby: 0.44 ms of planning for 0.18 of
 * reading; docs/benchmarks.md, Discovery).
 */

/** earthdistance's earth(): the radius of its sphere, in metres. */
export const earthRadiusMetres = 6_378_168;

export function earthPointOf({ latitude, longitude }: { latitude: number; longitude: number }): string {
  const phi = (latitude * Math.PI) / 180;
  const lambda = (longitude * Math.PI) / 180;
  const r = earthRadiusMetres;
  return `(${r * Math.cos(phi) * Math.cos(lambda)}, ${r * Math.cos(phi) * Math.sin(lambda)}, ${r * Math.sin(phi)})`;
}
