/** All SQL of offers: the public list and search (live offers only), look-ups, upsert. */
import { and, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { newId } from '../../platform/ids/ids.ts';
import { insertedRow, offerLive, textSearch } from './catalogue-sql.ts';
import { establishments, type LocalizedText, type OfferRow, offers } from './tables.ts';

const { searchText: _searchText, ...offerColumns } = getTableColumns(offers);

/** An offer as the service reads it: its row (without the search text) and whether it is live now. */
export type ListedOffer = Omit<OfferRow, 'searchText'> & { live: boolean };

/** Newest first. */
export const offersKeyset = newestFirst<ListedOffer>('offers', offers);

export interface OfferFilter {
  establishmentId?: string;
  brandId?: string;
  /** The offers of the establishments of a city or a country. */
  cityId?: string;
  countryCode?: string;
}

export interface OfferWrite {
  externalId: string;
  title: LocalizedText;
  description?: LocalizedText;
  establishmentId?: string | null;
  brandId?: string | null;
  priceMin?: number | null;
  priceMax?: number | null;
  currency: string;
  commissionRateBps: number;
  partnerUrl: string;
  validFrom?: Date | null;
  validUntil?: Date | null;
  active?: boolean;
}

const columnsAt = (now: Date) => ({ ...offerColumns, live: sql<boolean>`${offerLive(now)}` });

function filterConditions(filter: OfferFilter): (SQL | undefined)[] {
  return [
    filter.establishmentId === undefined ? undefined : eq(offers.establishmentId, filter.establishmentId),
    filter.brandId === undefined ? undefined : eq(offers.brandId, filter.brandId),
    filter.cityId === undefined ? undefined : eq(establishments.cityId, filter.cityId),
    filter.countryCode === undefined ? undefined : eq(establishments.countryCode, filter.countryCode),
  ];
}

export class OffersRepository extends Repository {
  /** One page (limit + 1 rows) of the offers live at `now` matching the filter. */
  async listLive(filter: OfferFilter, now: Date, page: PageRequest): Promise<ListedOffer[]> {
    const { where, orderBy } = keyset(offersKeyset, page);
    return this.db
      .select(columnsAt(now))
      .from(offers)
      .leftJoin(establishments, eq(establishments.id, offers.establishmentId))
      .where(and(offerLive(now), ...filterConditions(filter), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** The live offers of one establishment, newest first (at most `limit`). */
  async liveOfEstablishment(establishmentId: string, now: Date, limit: number): Promise<ListedOffer[]> {
    return this.db
      .select(columnsAt(now))
      .from(offers)
      .leftJoin(establishments, eq(establishments.id, offers.establishmentId))
      .where(and(offerLive(now), eq(offers.establishmentId, establishmentId)))
      .orderBy(desc(offers.createdAt), desc(offers.id))
      .limit(limit);
  }

  /** Offers live at `now` matching `q` (titles and descriptions), best first. */
  async searchLive(q: string, now: Date, limit: number): Promise<ListedOffer[]> {
    const { matches, score } = textSearch(offers.searchText, q);
    return this.db
      .select(columnsAt(now))
      .from(offers)
      .leftJoin(establishments, eq(establishments.id, offers.establishmentId))
      .where(and(offerLive(now), matches))
      .orderBy(desc(score), offers.id)
      .limit(limit);
  }

  /** Any offer, live or not, with whether it is live at `now`. */
  async findById(id: string, now: Date): Promise<ListedOffer | null> {
    const [row] = await this.db
      .select(columnsAt(now))
      .from(offers)
      .leftJoin(establishments, eq(establishments.id, offers.establishmentId))
      .where(eq(offers.id, id));
    return row ?? null;
  }

  /** Creates the offer or updates the one with the same external id; `created` tells which. */
  async upsert(input: OfferWrite, now: Date): Promise<{ row: OfferRow; created: boolean }> {
    const values = {
      title: input.title,
      description: input.description ?? {},
      establishmentId: input.establishmentId ?? null,
      brandId: input.brandId ?? null,
      priceMin: input.priceMin ?? null,
      priceMax: input.priceMax ?? null,
      currency: input.currency,
      commissionRateBps: input.commissionRateBps,
      partnerUrl: input.partnerUrl,
      validFrom: input.validFrom ?? null,
      validUntil: input.validUntil ?? null,
      active: input.active ?? true,
      updatedAt: now,
    };
    const [row] = await this.db
      .insert(offers)
      .values({ id: newId(), externalId: input.externalId, createdAt: now, ...values })
      .onConflictDoUpdate({ target: offers.externalId, set: values })
      .returning({ ...getTableColumns(offers), created: insertedRow });
    if (row === undefined) throw new Error('offer upsert returned no row');
    const { created, ...offer } = row;
    return { row: offer, created };
  }
}
