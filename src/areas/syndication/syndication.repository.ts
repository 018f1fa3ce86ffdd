/** The SQL of syndication: the newest public photos of a hashtag, read through media's and accounts' read models. */
import { and, arrayContains, desc, eq } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { userRows as users } from '../accounts/read-model.ts';
import { type ListedMedia, listedMediaColumns, mediaRows as media, mediaListedFor } from '../media/read-model.ts';

export interface AuthoredMedia {
  media: ListedMedia;
  author: { username: string | null; nickname: string | null };
}

export class SyndicationRepository extends Repository {
  /** The newest publicly listed posts with the hashtag (media's GIN index on hashtags), with their authors' names. */
  async taggedMedia(tag: string, limit: number): Promise<AuthoredMedia[]> {
    return this.replicaDb
      .select({ media: listedMediaColumns, author: { username: users.username, nickname: users.nickname } })
      .from(media)
      .innerJoin(users, eq(users.id, media.ownerId))
      .where(and(arrayContains(media.hashtags, [tag]), mediaListedFor(null)))
      .orderBy(desc(media.createdAt), desc(media.id))
      .limit(limit);
  }
}
