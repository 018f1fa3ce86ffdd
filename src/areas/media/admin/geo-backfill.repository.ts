/** The SQL of the geo backfill, on media's own table: positioned media never geocoded, and their place. */
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { Repository } from '../../../platform/db/repository.ts';
import { returned } from '../../../platform/db/returned.ts';
import { type MediaRow, media } from '../tables.ts';

export interface PendingPosition {
  id: string;
  latitude: number;
  longitude: number;
}

export class GeoBackfillRepository extends Repository {
  /** Up to `limit` media to geocode, locked; rows another run holds are skipped, so two runs share the work. */
  async pending(limit: number): Promise<PendingPosition[]> {
    const rows = await this.db
      .select({ id: media.id, latitude: media.latitude, longitude: media.longitude })
      .from(media)
      .where(and(isNull(media.geocodedAt), isNotNull(media.latitude), isNotNull(media.longitude)))
      .orderBy(asc(media.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    return rows as PendingPosition[];
  }

  async setPlace(id: string, place: { cityId: string; countryCode: string } | null, at: Date): Promise<MediaRow> {
    const [row] = await this.db
      .update(media)
      .set({ cityId: place?.cityId ?? null, countryCode: place?.countryCode ?? null, geocodedAt: at })
      .where(eq(media.id, id))
      .returning();
    return returned(row, 'media.setPlace');
  }
}
