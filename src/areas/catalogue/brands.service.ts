/** Brands: the public list and look-ups, and saving one (imports, tests). */
import type { Clock } from '../../platform/clock.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { BrandsRepository, BrandWrite } from './brands.repository.ts';
import type { BrandRow } from './tables.ts';
import { externalIdProblem, httpUrlProblem, localizedTextProblem, nameProblem } from './validation.ts';
import { invalid } from './write-checks.ts';

export interface BrandsServiceDeps {
  brands: BrandsRepository;
  clock: Clock;
}

export class BrandsService {
  readonly #deps: BrandsServiceDeps;

  constructor(deps: BrandsServiceDeps) {
    this.#deps = deps;
  }

  list(page: PageRequest): Promise<BrandRow[]> {
    return this.#deps.brands.list(page);
  }

  async get(id: string): Promise<BrandRow> {
    const row = await this.#deps.brands.findById(id);
    if (row === null) throw new AppError('notFound', { detail: 'No brand has this id' });
    return row;
  }

  findByIds(ids: string[]): Promise<BrandRow[]> {
    return this.#deps.brands.findByIds([...new Set(ids)]);
  }

  /**
   * Creates or updates (by external id) a brand; a bad field is 422 validationFailed naming it. What
   * passes here passes every check of the table (migration 1000).
   */
  async save(input: BrandWrite): Promise<{ row: BrandRow; created: boolean }> {
    invalid('/externalId', externalIdProblem(input.externalId));
    invalid('/name', nameProblem(input.name));
    if (input.website) invalid('/website', httpUrlProblem(input.website));
    invalid('/description', localizedTextProblem(input.description ?? {}, false));
    return this.#deps.brands.upsert(input, this.#deps.clock.now());
  }
}
