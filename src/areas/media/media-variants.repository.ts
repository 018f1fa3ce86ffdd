/** The media-variants job's SQL: media whose common variants are not rendered yet, newest first. */
import { and, desc, inArray, isNull } from 'drizzle-orm';
import { Repository } from '../../platform/db/repository.ts';
import { type MediaRow, media } from './tables.ts';

export class MediaVariantsRepository extends Repository {
  /** Up to `limit` media waiting for their common variants (the partial index media_variants_pending). */
  async pending(limit: number): Promise<MediaRow[]> {
    return this.db
      .select()
      .from(media)
      .where(isNull(media.variantsRenderedAt))
      .orderBy(desc(media.createdAt), desc(media.id))
      .limit(limit);
  }

  /** Marks the media done; a row deleted meanwhile is simply not there to mark. */
  async markRendered(ids: string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(media)
      .set({ variantsRenderedAt: at })
      .where(and(inArray(media.id, ids), isNull(media.variantsRenderedAt)));
  }
}
