/**
 * Metres along the great circle from a centre to a row's position: the haversine formula on
 * earthdistance's sphere, so the same distance as earth_distance(ll_to_earth(…), ll_to_earth(…)) (to a
 * micrometre) without building two `earth` values, whose domain checks cost about 10 µs a row.
 */
import { type AnyColumn, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { earthRadiusMetres } from './earth-point.ts';

/** Latitude and longitude in degrees. */
interface Position<T> {
  latitude: T;
  longitude: T;
}

type Centre = Position<SQL | Placeholder>;

/** The centre of a prepared statement: its placeholders `latitude` and `longitude`. */
const centrePlaceholders: Centre = { latitude: sql.placeholder('latitude'), longitude: sql.placeholder('longitude') };

/** A centre known when the statement is built, bound as float8 values. */
export function boundCentre(centre: Position<number>): Centre {
  return { latitude: sql`${centre.latitude}::float8`, longitude: sql`${centre.longitude}::float8` };
}

export function greatCircleMetres(position: Position<AnyColumn>, centre: Centre = centrePlaceholders): SQL<number> {
  const { latitude, longitude } = centre;
  const halfChord = sql`power(sin(radians(${position.latitude} - ${latitude}) / 2), 2)
    + cos(radians(${latitude})) * cos(radians(${position.latitude})) * power(sin(radians(${position.longitude} - ${longitude}) / 2), 2)`;
  return sql<number>`(2 * ${sql.raw(String(earthRadiusMetres))} * asin(least(1, sqrt(${halfChord}))))`;
}
