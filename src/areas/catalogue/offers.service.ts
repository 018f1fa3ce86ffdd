/** Offers: the public list, search and page (live offers), what click tracking reads, and saving one. */

import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { isSearchable } from '../../platform/text/searchable.ts';
import type { ListedOffer, OfferFilter, OffersRepository, OfferWrite } from './offers.repository.ts';
import type { OfferRow } from './tables.ts';
import {
  commissionRateProblem,
  currencyProblem,
  externalIdProblem,
  httpUrlProblem,
  localizedTextProblem,
  priceProblem,
  storableTimeProblem,
} from './validation.ts';
import { invalid } from './write-checks.ts';

/** What click tracking and conversions need of an offer (area `tracking`). */
export interface TrackedOffer {
  id: string;
  partnerUrl: string;
  commissionRateBps: number;
  currency: string;
  establishmentId: string | null;
  brandId: string | null;
  /** Active, inside its validity window now (the injected clock) and its establishment active. */
  live: boolean;
}

export interface OffersServiceDeps {
  offers: OffersRepository;
  clock: Clock;
}

export class OffersService {
  readonly #deps: OffersServiceDeps;

  constructor(deps: OffersServiceDeps) {
    this.#deps = deps;
  }

  list(filter: OfferFilter, page: PageRequest): Promise<ListedOffer[]> {
    return this.#deps.offers.listLive(filter, this.#deps.clock.now(), page);
  }

  /** Nothing, without a statement, for a query with no letter or digit (isSearchable). */
  async search(q: string, limit: number): Promise<ListedOffer[]> {
    return isSearchable(q) ? this.#deps.offers.searchLive(q, this.#deps.clock.now(), limit) : [];
  }

  /**
   * A live offer. An unknown id is 404; an expired, not yet valid or inactive offer is 410 offerGone,
   * its meta naming the establishment (or brand) to point the reader to.
   */
  async get(id: string): Promise<ListedOffer> {
    const offer = await this.#deps.offers.findById(id, this.#deps.clock.now());
    if (offer === null) throw new AppError('notFound', { detail: 'No offer has this id' });
    if (!offer.live) {
      throw new AppError('offerGone', {
        detail: 'This offer is not available now',
        meta: { establishmentId: offer.establishmentId, brandId: offer.brandId },
      });
    }
    return offer;
  }

  /** The offer for a click or a conversion, live or not (the caller decides); null when unknown. */
  async findForTracking(id: string): Promise<TrackedOffer | null> {
    const offer = await this.#deps.offers.findById(id, this.#deps.clock.now());
    if (offer === null) return null;
    const { partnerUrl, commissionRateBps, currency, establishmentId, brandId, live } = offer;
    return { id: offer.id, partnerUrl, commissionRateBps, currency, establishmentId, brandId, live };
  }

  /**
   * Creates or updates (by external id) an offer; a bad field is 422 validationFailed naming it. What
   * passes here passes every check of the table (migration 1000).
   */
  async save(input: OfferWrite): Promise<{ row: OfferRow; created: boolean }> {
    invalid('/externalId', externalIdProblem(input.externalId));
    invalid('/title', localizedTextProblem(input.title, true));
    invalid('/description', localizedTextProblem(input.description ?? {}, false));
    invalid('/establishmentId', input.establishmentId || input.brandId ? null : 'or brandId is required');
    invalid('/currency', currencyProblem(input.currency));
    invalid('/commissionRateBps', commissionRateProblem(input.commissionRateBps));
    invalid('/partnerUrl', httpUrlProblem(input.partnerUrl));
    if (input.priceMin != null) invalid('/priceMin', priceProblem(input.priceMin));
    if (input.priceMax != null) invalid('/priceMax', priceProblem(input.priceMax));
    if (input.priceMin != null && input.priceMax != null) {
      invalid('/priceMax', input.priceMin <= input.priceMax ? null : 'is below priceMin');
    }
    if (input.validFrom) invalid('/validFrom', storableTimeProblem(input.validFrom));
    if (input.validUntil) invalid('/validUntil', storableTimeProblem(input.validUntil));
    if (input.validFrom && input.validUntil) {
      invalid('/validUntil', input.validFrom < input.validUntil ? null : 'is not after validFrom');
    }
    return this.#deps.offers.upsert(input, this.#deps.clock.now());
  }
}
