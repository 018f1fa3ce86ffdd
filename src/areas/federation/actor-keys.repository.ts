/** All SQL of the local actors' key pairs (federation_actor_keys). */
import { and, eq, gt } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { type ActorKeyAlgorithm, type ActorKeyRow, federationActorKeys } from './tables.ts';

export class ActorKeysRepository extends Repository {
  async ofUser(userId: string): Promise<ActorKeyRow[]> {
    return this.db.select().from(federationActorKeys).where(eq(federationActorKeys.userId, userId));
  }

  /** Inserts the pairs a user has none of yet; a pair made at the same time by another request wins. */
  async insertMissing(rows: readonly ActorKeyRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insert(federationActorKeys)
      .values([...rows])
      .onConflictDoNothing();
  }

  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(federationActorKeys).where(eq(federationActorKeys.userId, userId));
  }

  /** The public halves, for the user's data export (keyset batches by algorithm). */
  async exportRows(userId: string, after: string | null, limit: number) {
    return this.db
      .select({
        algorithm: federationActorKeys.algorithm,
        publicJwk: federationActorKeys.publicJwk,
        createdAt: federationActorKeys.createdAt,
      })
      .from(federationActorKeys)
      .where(
        and(
          eq(federationActorKeys.userId, userId),
          after === null ? undefined : gt(federationActorKeys.algorithm, after as ActorKeyAlgorithm),
        ),
      )
      .orderBy(federationActorKeys.algorithm)
      .limit(limit);
  }
}
