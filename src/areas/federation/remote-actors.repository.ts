/** All SQL of the remote actors federation knows (federation_remote_actors). */
import { eq } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { federationRemoteActors, type RemoteActorRow } from './tables.ts';

export class RemoteActorsRepository extends Repository {
  async find(actorUri: string): Promise<RemoteActorRow | null> {
    const [row] = await this.db
      .select()
      .from(federationRemoteActors)
      .where(eq(federationRemoteActors.actorUri, actorUri));
    return row ?? null;
  }

  async ofUser(userId: string): Promise<RemoteActorRow | null> {
    const [row] = await this.db.select().from(federationRemoteActors).where(eq(federationRemoteActors.userId, userId));
    return row ?? null;
  }

  async insert(row: RemoteActorRow): Promise<void> {
    await this.db.insert(federationRemoteActors).values(row);
  }

  async refresh(actorUri: string, fields: Omit<RemoteActorRow, 'actorUri' | 'userId'>): Promise<void> {
    await this.db.update(federationRemoteActors).set(fields).where(eq(federationRemoteActors.actorUri, actorUri));
  }

  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(federationRemoteActors).where(eq(federationRemoteActors.userId, userId));
  }
}
