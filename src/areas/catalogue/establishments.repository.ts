/** All SQL of establishments: the public list (newest first, or nearest first), search, look-up, upsert. */
import { and, arrayContains, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { earthPointOf } from '../../platform/db/earth-point.ts';
import { boundCentre, greatCircleMetres } from '../../platform/db/great-circle.ts';
import { defineKeyset, newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { newId } from '../../platform/ids/ids.ts';
import { cityRows as cities } from '../geography/read-model.ts';
import { insertedRow, textSearch } from './catalogue-sql.ts';
import { type EstablishmentRow, establishments, type LocalizedText } from './tables.ts';

const { searchText: _searchText, ...establishmentColumns } = getTableColumns(establishments);

/** An establishment as the API shows it: its row (without the search text) and its city's name. */
export type ListedEstablishment = Omit<EstablishmentRow, 'searchText'> & {
  cityName: string | null;
  /** Metres from the centre of a `near` list; null otherwise. */
  distance: number | null;
};

const listedColumns = { ...establishmentColumns, cityName: cities.name };

/** The default list: newest first. */
export const establishmentsKeyset = newestFirst<ListedEstablishment>('establishments', establishments);

/** A `near` list: nearest first (great-circle metres), then by id. */
export const establishmentsNearKeyset = defineKeyset<ListedEstablishment>({
  name: 'establishments-near',
  shape: ['number', 'uuid'],
  // The distance depends on the centre: the repository builds them per request (`distanceFrom`).
  columns: [],
  keyOf: (row) => [row.distance ?? 0, row.id],
  order: 'asc',
});

export interface Centre {
  latitude: number;
  longitude: number;
}

export interface EstablishmentFilter {
  cityId?: string;
  countryCode?: string;
  kind?: string;
  label?: string;
  brandId?: string;
  near?: Centre & { radiusMetres: number };
}

export interface EstablishmentWrite {
  externalId: string;
  name: string;
  kind: string;
  labels?: string[];
  address?: string | null;
  cityId?: string | null;
  countryCode: string;
  latitude?: number | null;
  longitude?: number | null;
  brandId?: string | null;
  website?: string | null;
  description?: LocalizedText;
  active?: boolean;
}

const earthOf = (centre: Centre) => sql`${earthPointOf(centre)}::earth`;
// The expression of the GiST index on positions (migrations): the box is read on it.
const position = sql`ll_to_earth(${establishments.latitude}, ${establishments.longitude})`;
// The haversine metres of each candidate in the box, without building an earth value per row.
const distanceFrom = (centre: Centre) => greatCircleMetres(establishments, boundCentre(centre));

function filterConditions(filter: EstablishmentFilter): (SQL | undefined)[] {
  return [
    eq(establishments.active, true),
    filter.cityId === undefined ? undefined : eq(establishments.cityId, filter.cityId),
    filter.countryCode === undefined ? undefined : eq(establishments.countryCode, filter.countryCode),
    filter.kind === undefined ? undefined : eq(establishments.kind, filter.kind),
    filter.label === undefined ? undefined : arrayContains(establishments.labels, [filter.label]),
    filter.brandId === undefined ? undefined : eq(establishments.brandId, filter.brandId),
  ];
}

export class EstablishmentsRepository extends Repository {
  /** One page (limit + 1 rows) of active establishments matching the filter. */
  async list(filter: EstablishmentFilter, page: PageRequest): Promise<ListedEstablishment[]> {
    const { near } = filter;
    if (near === undefined) {
      const { where, orderBy } = keyset(establishmentsKeyset, page);
      return this.db
        .select({ ...listedColumns, distance: sql<number | null>`NULL::float8` })
        .from(establishments)
        .leftJoin(cities, eq(cities.id, establishments.cityId))
        .where(and(...filterConditions(filter), where))
        .orderBy(...orderBy)
        .limit(page.limit + 1);
    }
    // A bounded box on the GiST index (earth_box), then the exact distance, ordered nearest first.
    const distance = distanceFrom(near);
    const { where, orderBy } = keyset({ columns: [distance, establishments.id], order: 'asc' }, page);
    return this.db
      .select({ ...listedColumns, distance })
      .from(establishments)
      .leftJoin(cities, eq(cities.id, establishments.cityId))
      .where(
        and(
          ...filterConditions(filter),
          sql`${establishments.latitude} IS NOT NULL`,
          sql`earth_box(${earthOf(near)}, ${near.radiusMetres}::float8) @> ${position}`,
          sql`${distance} <= ${near.radiusMetres}::float8`,
          where,
        ),
      )
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** Active establishments matching `q` (name and descriptions), best first. */
  async search(q: string, limit: number): Promise<ListedEstablishment[]> {
    const { matches, score } = textSearch(establishments.searchText, q);
    return this.db
      .select({ ...listedColumns, distance: sql<number | null>`NULL::float8` })
      .from(establishments)
      .leftJoin(cities, eq(cities.id, establishments.cityId))
      .where(and(eq(establishments.active, true), matches))
      .orderBy(desc(score), establishments.id)
      .limit(limit);
  }

  async findById(id: string): Promise<ListedEstablishment | null> {
    const [row] = await this.db
      .select({ ...listedColumns, distance: sql<number | null>`NULL::float8` })
      .from(establishments)
      .leftJoin(cities, eq(cities.id, establishments.cityId))
      .where(eq(establishments.id, id));
    return row ?? null;
  }

  /** Creates the establishment or updates the one with the same external id; `created` tells which. */
  async upsert(input: EstablishmentWrite, now: Date): Promise<{ row: EstablishmentRow; created: boolean }> {
    const values = {
      name: input.name,
      kind: input.kind,
      labels: input.labels ?? [],
      address: input.address ?? null,
      cityId: input.cityId ?? null,
      countryCode: input.countryCode,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      brandId: input.brandId ?? null,
      website: input.website ?? null,
      description: input.description ?? {},
      active: input.active ?? true,
      updatedAt: now,
    };
    const [row] = await this.db
      .insert(establishments)
      .values({ id: newId(), externalId: input.externalId, createdAt: now, ...values })
      .onConflictDoUpdate({ target: establishments.externalId, set: values })
      .returning({ ...getTableColumns(establishments), created: insertedRow });
    if (row === undefined) throw new Error('establishment upsert returned no row');
    const { created, ...establishment } = row;
    return { row: establishment, created };
  }
}
