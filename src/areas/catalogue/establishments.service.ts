/** Establishments: the public list, search and page, and saving one (imports, tests). */

import type { Clock } from '../../platform/clock.ts';
import { centimetreDegrees } from '../../platform/db/centimetre-degrees.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { isSearchable } from '../../platform/text/searchable.ts';
import type { BrandsService } from './brands.service.ts';
import {
  type EstablishmentFilter,
  type EstablishmentsRepository,
  type EstablishmentWrite,
  establishmentsKeyset,
  type ListedEstablishment,
} from './establishments.repository.ts';
import type { ListedOffer, OffersRepository } from './offers.repository.ts';
import type { BrandRow, EstablishmentRow } from './tables.ts';
import {
  externalIdProblem,
  httpUrlProblem,
  kindProblem,
  labelsProblem,
  localizedTextProblem,
  nameProblem,
} from './validation.ts';
import { invalid } from './write-checks.ts';

/** How many live offers an establishment's page includes (newest first); GET /api/offers lists them all. */
export const establishmentOffersShown = 50;

export interface EstablishmentPage {
  establishment: ListedEstablishment;
  brand: BrandRow | null;
  offers: ListedOffer[];
}

export interface EstablishmentsServiceDeps {
  establishments: EstablishmentsRepository;
  offers: OffersRepository;
  brands: BrandsService;
  clock: Clock;
}

export class EstablishmentsService {
  readonly #deps: EstablishmentsServiceDeps;

  /** The keyset of list() without `near`, for the routes that page it (the web's sustainable tourism page). */
  readonly listKeyset = establishmentsKeyset;

  constructor(deps: EstablishmentsServiceDeps) {
    this.#deps = deps;
  }

  list(filter: EstablishmentFilter, page: PageRequest): Promise<ListedEstablishment[]> {
    return this.#deps.establishments.list(filter, page);
  }

  /** Nothing, without a statement, for a query with no letter or digit (isSearchable). */
  async search(q: string, limit: number): Promise<ListedEstablishment[]> {
    return isSearchable(q) ? this.#deps.establishments.search(q, limit) : [];
  }

  /** An active establishment with its brand and its live offers; an unknown or inactive one is 404. */
  async get(id: string): Promise<EstablishmentPage> {
    const establishment = await this.#deps.establishments.findById(id);
    if (establishment === null || !establishment.active) {
      throw new AppError('notFound', { detail: 'No establishment has this id' });
    }
    const [brand] = establishment.brandId === null ? [] : await this.#deps.brands.findByIds([establishment.brandId]);
    const offers = await this.#deps.offers.liveOfEstablishment(id, this.#deps.clock.now(), establishmentOffersShown);
    return { establishment, brand: brand ?? null, offers };
  }

  /**
   * Creates or updates (by external id) an establishment; a bad field is 422 validationFailed naming
   * it. What passes here passes every check of the table (migration 1000).
   */
  async save(input: EstablishmentWrite): Promise<{ row: EstablishmentRow; created: boolean }> {
    invalid('/externalId', externalIdProblem(input.externalId));
    invalid('/name', nameProblem(input.name));
    invalid('/kind', kindProblem(input.kind));
    invalid('/labels', labelsProblem(input.labels ?? []));
    invalid('/countryCode', /^[A-Z]{2}$/.test(input.countryCode) ? null : 'must be an ISO 3166-1 alpha-2 code');
    if (input.website) invalid('/website', httpUrlProblem(input.website));
    invalid('/description', localizedTextProblem(input.description ?? {}, false));
    const { latitude, longitude } = input;
    const placed = latitude != null && longitude != null;
    if (placed) {
      invalid('/latitude', Math.abs(latitude) <= 90 ? null : 'must be from -90 to 90');
      invalid('/longitude', Math.abs(longitude) <= 180 ? null : 'must be from -180 to 180');
    } else {
      invalid('/latitude', (latitude == null) === (longitude == null) ? null : 'comes with a longitude');
    }
    const position = placed ? { latitude: centimetreDegrees(latitude), longitude: centimetreDegrees(longitude) } : {};
    return this.#deps.establishments.upsert({ ...input, ...position }, this.#deps.clock.now());
  }
}
