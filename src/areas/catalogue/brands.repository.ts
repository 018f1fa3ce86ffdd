/** All SQL of brands. */
import { eq, getTableColumns, inArray } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { newId } from '../../platform/ids/ids.ts';
import { insertedRow } from './catalogue-sql.ts';
import { type BrandRow, brands, type LocalizedText } from './tables.ts';

/** The brand list: by name (A to Z), then id. */
export const brandsKeyset = defineKeyset<BrandRow>({
  name: 'brands',
  shape: ['string', 'uuid'],
  columns: [brands.name, brands.id],
  keyOf: (row) => [row.name, row.id],
  order: 'asc',
});

export interface BrandWrite {
  externalId: string;
  name: string;
  website?: string | null;
  description?: LocalizedText;
}

export class BrandsRepository extends Repository {
  async list(page: PageRequest): Promise<BrandRow[]> {
    const { where, orderBy } = keyset(brandsKeyset, page);
    return this.db
      .select()
      .from(brands)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async findById(id: string): Promise<BrandRow | null> {
    const [row] = await this.db.select().from(brands).where(eq(brands.id, id));
    return row ?? null;
  }

  async findByIds(ids: string[]): Promise<BrandRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(brands).where(inArray(brands.id, ids));
  }

  /** Creates the brand or updates the one with the same external id; `created` tells which. */
  async upsert(input: BrandWrite, now: Date): Promise<{ row: BrandRow; created: boolean }> {
    const values = {
      name: input.name,
      website: input.website ?? null,
      description: input.description ?? {},
      updatedAt: now,
    };
    const [row] = await this.db
      .insert(brands)
      .values({ id: newId(), externalId: input.externalId, createdAt: now, ...values })
      .onConflictDoUpdate({ target: brands.externalId, set: values })
      .returning({ ...getTableColumns(brands), created: insertedRow });
    if (row === undefined) throw new Error('brand upsert returned no row');
    const { created, ...brand } = row;
    return { row: brand, created };
  }
}
