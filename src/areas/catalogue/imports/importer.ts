/**
 * Imports rows into the catalogue, each in its own transaction: a row is written whole or not at all,
 * a refused row leaves the others alone, and rows earlier in a file are committed when a later one
 * refers to them (an offer's establishment above it). Rows are upserted by external id through the
 * catalogue's services (`save`), which hold the same rules once more, and every check of the tables.
 * A failure that is not the row's (the database is down) stops the import at that row: the rows
 * above it stay imported. No reason ever quotes a statement or its values.
 */
import {
  databaseError,
  isForeignKeyViolation,
  isUnstorableText,
  uniqueViolation,
} from '../../../platform/db/errors.ts';
import type { Transactions } from '../../../platform/db/transactions.ts';
import { AppError } from '../../../platform/http/error-catalogue.ts';
import { isLowercaseUuid } from '../../../platform/ids/ids.ts';
import type { CatalogueServices } from '../public.ts';
import type { SourceRow } from './csv-rows.ts';
import type { ImportRepository } from './import.repository.ts';
import {
  type BrandInput,
  checkBrand,
  checkEstablishment,
  checkOffer,
  type Dataset,
  type EstablishmentInput,
  type OfferInput,
  RowError,
} from './rows.ts';

export interface ImportReport {
  dataset: Dataset;
  created: number;
  updated: number;
  /** The refused rows, in file order: the line each starts on and why. */
  refused: { line: number; reason: string }[];
  /** The line of the row the import stopped at (it is in `refused`); the rows after it were not imported. */
  stoppedAt?: number;
}

export type ImportProgress = (done: number, total: number) => void;

type Upserted = { created: boolean };

export class CatalogueImporter {
  readonly #transactions: Transactions;
  readonly #repository: ImportRepository;
  readonly #catalogue: CatalogueServices;

  constructor(transactions: Transactions, repository: ImportRepository, catalogue: CatalogueServices) {
    this.#transactions = transactions;
    this.#repository = repository;
    this.#catalogue = catalogue;
  }

  async import(dataset: Dataset, rows: readonly SourceRow[], progress?: ImportProgress): Promise<ImportReport> {
    const report: ImportReport = { dataset, created: 0, updated: 0, refused: [] };
    for (const [index, row] of rows.entries()) {
      try {
        if (row.error !== undefined) throw new RowError(row.error);
        // A refused row rolls back alone, also when the import runs inside a transaction.
        const result = await this.#transactions.attempt(() => this.#write(dataset, row.value));
        if (result.created) report.created++;
        else report.updated++;
      } catch (error) {
        const { reason, stop } = outcomeOf(error);
        report.refused.push({ line: row.line, reason });
        if (stop) {
          report.stoppedAt = row.line;
          return report;
        }
      }
      progress?.(index + 1, rows.length);
    }
    return report;
  }

  #write(dataset: Dataset, value: unknown): Promise<Upserted> {
    switch (dataset) {
      case 'brands':
        return this.#brand(checkBrand(value));
      case 'establishments':
        return this.#establishment(checkEstablishment(value));
      case 'offers':
        return this.#offer(checkOffer(value));
    }
  }

  #brand(input: BrandInput): Promise<Upserted> {
    return this.#catalogue.brands.save(input);
  }

  async #establishment(input: EstablishmentInput): Promise<Upserted> {
    const { city, country, brandExternalId, ...rest } = input;
    let cityId: string | null = null;
    let countryCode = country;
    if (city !== null && 'id' in city) {
      const cityCountry = isLowercaseUuid(city.id) ? await this.#repository.cityCountry(city.id) : null;
      if (cityCountry === null) throw new RowError(`cityId: no city ${city.id} in the geography data`);
      if (country !== null && country !== cityCountry)
        throw new RowError(`country: the city ${city.id} is in ${cityCountry}, not ${country}`);
      cityId = city.id;
      countryCode = cityCountry;
    } else if (countryCode !== null && !(await this.#repository.countryExists(countryCode))) {
      throw new RowError(`country: unknown country ${countryCode}`);
    }
    if (city !== null && 'name' in city) {
      cityId = await this.#repository.cityByName(city.name, city.country.toUpperCase());
      if (cityId === null) throw new RowError(`city: no city named ${JSON.stringify(city.name)} in ${countryCode}`);
    }
    // The row's check requires a country unless a cityId gives it.
    if (countryCode === null) throw new RowError('country: is required (or cityId)');
    const brandId = brandExternalId === null ? null : await this.#repository.brandId(brandExternalId);
    if (brandExternalId !== null && brandId === null)
      throw new RowError(`brandExternalId: no brand ${JSON.stringify(brandExternalId)} (import brands first)`);
    return this.#catalogue.establishments.save({ ...rest, cityId, countryCode, brandId });
  }

  async #offer(input: OfferInput): Promise<Upserted> {
    const { establishmentExternalId, brandExternalId, ...rest } = input;
    const establishmentId =
      establishmentExternalId === null ? null : await this.#repository.establishmentId(establishmentExternalId);
    if (establishmentExternalId !== null && establishmentId === null) {
      throw new RowError(
        `establishmentExternalId: no establishment ${JSON.stringify(establishmentExternalId)} (import establishments first)`,
      );
    }
    const brandId = brandExternalId === null ? null : await this.#repository.brandId(brandExternalId);
    if (brandExternalId !== null && brandId === null)
      throw new RowError(`brandExternalId: no brand ${JSON.stringify(brandExternalId)} (import brands first)`);
    return this.#catalogue.offers.save({ ...rest, establishmentId, brandId });
  }
}

/**
 * SQLSTATE classes that mean the database refused this row's values (a data exception, a constraint,
 * a trigger's refusal, a conflict with a concurrent write), not that the database failed.
 */
const rowRefusals = new Set(['09', '22', '23', '27', '40', '44', 'P0']);

/** Why a row was not written, and whether the next rows can be tried (not when the database failed). */
function outcomeOf(error: unknown): { reason: string; stop: boolean } {
  const refused = (reason: string) => ({ reason, stop: false });
  if (error instanceof RowError) return refused(error.message);
  if (error instanceof AppError) return refused(error.options.detail ?? error.code);
  if (isUnstorableText(error)) return refused('a text holds characters that cannot be stored');
  if (isForeignKeyViolation(error)) return refused('a row it refers to was deleted meanwhile');
  if (uniqueViolation(error) !== null)
    return refused('another import wrote the same external id meanwhile; import it again');
  const database = databaseError(error);
  if (database === null) return { reason: `the row could not be written: ${innermostMessage(error)}`, stop: true };
  const said = `${database.message} (${database.code})`;
  return rowRefusals.has(database.code.slice(0, 2))
    ? refused(`the database refused it: ${said}`)
    : { reason: `the database failed: ${said}`, stop: true };
}

/** The innermost cause's message: Drizzle's wrapper quotes the statement and its values, its cause says what went wrong. */
function innermostMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
