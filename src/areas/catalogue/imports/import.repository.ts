/**
 * The imports' look-ups of what a row refers to: establishments and brands by external id, and cities
 * and countries through geography's read model. (Rows are written by the catalogue's services.)
 */
import { and, desc, eq, or, sql } from 'drizzle-orm';
import { Repository } from '../../../platform/db/repository.ts';
import { cityRows, countryRows } from '../../geography/read-model.ts';
import { brands, establishments } from '../tables.ts';

export class ImportRepository extends Repository {
  async brandId(externalId: string): Promise<string | null> {
    const [row] = await this.db.select({ id: brands.id }).from(brands).where(eq(brands.externalId, externalId));
    return row?.id ?? null;
  }

  async establishmentId(externalId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ id: establishments.id })
      .from(establishments)
      .where(eq(establishments.externalId, externalId));
    return row?.id ?? null;
  }

  async countryExists(alpha2: string): Promise<boolean> {
    const [row] = await this.db
      .select({ code: countryRows.alpha2 })
      .from(countryRows)
      .where(eq(countryRows.alpha2, alpha2));
    return row !== undefined;
  }

  async cityCountry(cityId: string): Promise<string | null> {
    const [row] = await this.db.select({ country: cityRows.countryCode }).from(cityRows).where(eq(cityRows.id, cityId));
    return row?.country ?? null;
  }

  /** A city by its name or ASCII name (any case) in a country; the most populated of namesakes. */
  async cityByName(name: string, country: string): Promise<string | null> {
    const folded = name.toLowerCase();
    const [row] = await this.db
      .select({ id: cityRows.id })
      .from(cityRows)
      .where(
        and(
          eq(cityRows.countryCode, country),
          or(eq(sql`lower(${cityRows.name})`, folded), eq(sql`lower(${cityRows.asciiName})`, folded)),
        ),
      )
      .orderBy(desc(cityRows.population), cityRows.id)
      .limit(1);
    return row?.id ?? null;
  }
}
