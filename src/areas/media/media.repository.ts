/** All SQL of media rows: uploads, lists, the description queue, moderation. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { type MediaRow, media } from './tables.ts';

export type NewMedia = typeof media.$inferInsert;

export class MediaRepository {
  constructor(readonly db: Db) {}

  async findById(id: string, db: Db = this.db): Promise<MediaRow | null> {
    const [row] = await db.select().from(media).where(eq(media.id, id));
    return row ?? null;
  }

  async findPostById(id: string, db: Db = this.db): Promise<MediaRow | null> {
    const [row] = await db.select().from(media).where(and(eq(media.id, id), eq(media.kind, 'post')));
    return row ?? null;
  }
}
