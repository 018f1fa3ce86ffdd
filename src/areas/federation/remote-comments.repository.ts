/** All SQL of the comments written from other servers (federation_remote_comments). */
import { eq } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { federationRemoteComments, type RemoteCommentRow } from './tables.ts';

export class RemoteCommentsRepository extends Repository {
  async findByObject(objectUri: string): Promise<RemoteCommentRow | null> {
    const [row] = await this.db
      .select()
      .from(federationRemoteComments)
      .where(eq(federationRemoteComments.objectUri, objectUri));
    return row ?? null;
  }

  async insert(row: RemoteCommentRow): Promise<void> {
    await this.db.insert(federationRemoteComments).values(row);
  }
}
