/**
 * All SQL of Fedify's key-value store (federation_kv). A key is stored as the JSON array of its parts,
 * so the entries under a prefix are the key itself and those that continue it with `,`.
 */
import { and, eq, gt, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { nameOf } from '../../platform/db/column-names.ts';
import { Repository } from '../../platform/db/repository.ts';
import { federationKv } from './tables.ts';

export interface KvEntryRow {
  key: string;
  value: unknown;
}

/** On a key's conflict: the new value and expiry replace the old. */
const replaceEntry = {
  target: federationKv.key,
  set: {
    value: sql`excluded.${nameOf(federationKv.value)}`,
    expiresAt: sql`excluded.${nameOf(federationKv.expiresAt)}`,
  },
};

const live = (now: Date): SQL | undefined => or(isNull(federationKv.expiresAt), gt(federationKv.expiresAt, now));

export class KvStoreRepository extends Repository {
  async get(key: string, now: Date): Promise<unknown> {
    const [row] = await this.db
      .select({ value: federationKv.value })
      .from(federationKv)
      .where(and(eq(federationKv.key, key), live(now)));
    return row?.value;
  }

  /** The live value under a row lock (the compare-and-swap's read), or undefined. */
  async getForUpdate(key: string, now: Date): Promise<unknown> {
    const [row] = await this.db
      .select({ value: federationKv.value })
      .from(federationKv)
      .where(and(eq(federationKv.key, key), live(now)))
      .for('update');
    return row?.value;
  }

  async set(key: string, value: unknown, expiresAt: Date | null): Promise<void> {
    await this.db.insert(federationKv).values({ key, value, expiresAt }).onConflictDoUpdate(replaceEntry);
  }

  /** Inserts unless a live entry holds the key (an expired one is replaced); whether it did. */
  async insertIfAbsent(key: string, value: unknown, expiresAt: Date | null, now: Date): Promise<boolean> {
    const rows = await this.db
      .insert(federationKv)
      .values({ key, value, expiresAt })
      .onConflictDoUpdate({
        ...replaceEntry,
        setWhere: and(isNotNull(federationKv.expiresAt), lte(federationKv.expiresAt, now)),
      })
      .returning({ key: federationKv.key });
    return rows.length > 0;
  }

  async delete(key: string): Promise<void> {
    await this.db.delete(federationKv).where(eq(federationKv.key, key));
  }

  /** Live entries whose key is `prefix` or continues it (`prefix` is a key's JSON without its closing `]`), in key order. */
  async list(prefix: string | null, now: Date): Promise<KvEntryRow[]> {
    const underPrefix =
      prefix === null
        ? undefined
        : or(
            eq(federationKv.key, `${prefix}]`),
            sql`left(${federationKv.key}, ${prefix.length + 1}) = ${`${prefix},`}`,
          );
    return this.db
      .select({ key: federationKv.key, value: federationKv.value })
      .from(federationKv)
      .where(and(live(now), underPrefix))
      .orderBy(federationKv.key);
  }

  /** Removes expired entries (the job federation-queue); how many. */
  async deleteExpired(now: Date): Promise<number> {
    const rows = await this.db
      .delete(federationKv)
      .where(and(isNotNull(federationKv.expiresAt), lte(federationKv.expiresAt, now)))
      .returning({ key: federationKv.key });
    return rows.length;
  }
}
