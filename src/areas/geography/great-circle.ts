/**
 * Metres along the great circle from the point given as the placeholders `latitude` and `longitude`
 * to a row's position: the haversine formula on earthdistance's sphere, so the same distance as
 * earth_distance(ll_to_earth(…), ll_to_earth(…)) (to a micrometre) without building two `earth`
 * values, whose domain checks cost about 10 µs a row.
 */
import { type AnyColumn, sql } from 'drizzle-orm';
import { earthRadiusMetres } from '../../platform/db/earth-point.ts';

export function greatCircleMetres(position: { latitude: AnyColumn; longitude: AnyColumn }) {
  const latitude = sql.placeholder('latitude');
  const longitude = sql.placeholder('longitude');
  const halfChord = sql`power(sin(radians(${position.latitude} - ${latitude}) / 2), 2)
    + cos(radians(${latitude})) * cos(radians(${position.latitude})) * power(sin(radians(${position.longitude} - ${longitude}) / 2), 2)`;
  return sql<number>`(2 * ${sql.raw(String(earthRadiusMetres))} * asin(least(1, sqrt(${halfChord}))))`;
}
