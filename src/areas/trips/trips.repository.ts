/** All SQL of trips, on its own tables; media and cities are read through their owners' read models. */
import { and, asc, eq, exists, getTableColumns, gt, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import { defineKeyset } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import { literal } from '../../platform/db/literals.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { Repository } from '../../platform/db/repository.ts';
import { newId } from '../../platform/ids/ids.ts';
import { cityRows } from '../geography/read-model.ts';
import { mediaRows, photoVisibleTo } from '../media/read-model.ts';
import { type TripHomeRow, type TripRow, tripHomes, tripPhotos, tripRecomputeQueue, trips } from './tables.ts';

/** A user's trips, latest first. */
export const tripsKeyset = defineKeyset<TripRow>({
  name: 'trips',
  shape: ['timestamp', 'uuid'],
  columns: [trips.startsAt, trips.id],
  keyOf: (row) => [row.startsAt, row.id],
});

/** A placed photo of the owner, as the grouping reads it. */
export interface OwnPlacedPhoto {
  id: string;
  latitude: number;
  longitude: number;
  cityId: string | null;
  time: Date;
}

/** A trip's photo as a viewer may see it, with its city (for names, and the point of a private position). */
export interface TripPhotoSeen {
  tripId: string;
  id: string;
  time: Date;
  latitude: number | null;
  longitude: number | null;
  locationPublic: boolean;
  cityId: string | null;
  cityName: string | null;
  cityLatitude: number | null;
  cityLongitude: number | null;
  countryCode: string | null;
  /** What the pages show of the photo: its description (alt text) and its content warning. */
  description: string | null;
  authorSensitive: boolean;
  contentWarning: string | null;
}

/** A trip to write: its id, its photos in time order (never empty). */
export interface TripToWrite {
  id: string;
  photos: { id: string; time: Date }[];
}

export class TripsRepository extends Repository {
  /** The owner's posts with a position: every one, whatever its visibility (the owner's own trips). */
  async placedPhotos(ownerId: string): Promise<OwnPlacedPhoto[]> {
    const rows = await this.db
      .select({
        id: mediaRows.id,
        latitude: mediaRows.latitude,
        longitude: mediaRows.longitude,
        cityId: mediaRows.cityId,
        takenAt: mediaRows.takenAt,
        createdAt: mediaRows.createdAt,
      })
      .from(mediaRows)
      .where(
        and(
          eq(mediaRows.ownerId, ownerId),
          eq(mediaRows.kind, literal('post')),
          isNotNull(mediaRows.latitude),
          isNotNull(mediaRows.longitude),
        ),
      );
    return rows.flatMap(({ latitude, longitude, takenAt, createdAt, ...row }) =>
      latitude === null || longitude === null ? [] : [{ ...row, latitude, longitude, time: takenAt ?? createdAt }],
    );
  }

  async cityPosition(cityId: string): Promise<{ latitude: number; longitude: number } | null> {
    const [row] = await this.db
      .select({ latitude: cityRows.latitude, longitude: cityRows.longitude })
      .from(cityRows)
      .where(eq(cityRows.id, cityId));
    return row ?? null;
  }

  async trip(id: string): Promise<TripRow | null> {
    const [row] = await this.db.select().from(trips).where(eq(trips.id, id));
    return row ?? null;
  }

  /** The trip if it is the owner's, locked for an edit. */
  async ownTripForUpdate(ownerId: string, id: string): Promise<TripRow | null> {
    const [row] = await this.db
      .select()
      .from(trips)
      .where(and(eq(trips.id, id), eq(trips.ownerId, ownerId)))
      .for('no key update');
    return row ?? null;
  }

  /** The frozen trips of an owner and their photos' ids. */
  async frozenTrips(ownerId: string): Promise<{ trip: TripRow; photoIds: string[] }[]> {
    const rows = await this.db
      .select({ trip: trips, mediaId: tripPhotos.mediaId })
      .from(trips)
      .leftJoin(tripPhotos, eq(tripPhotos.tripId, trips.id))
      .where(and(eq(trips.ownerId, ownerId), eq(trips.frozen, literal(true))));
    const byTrip = new Map<string, { trip: TripRow; photoIds: string[] }>();
    for (const { trip, mediaId } of rows) {
      const entry = byTrip.get(trip.id) ?? { trip, photoIds: [] };
      if (mediaId !== null) entry.photoIds.push(mediaId);
      byTrip.set(trip.id, entry);
    }
    return [...byTrip.values()];
  }

  /** The owner's photo ids in a trip, in time order. */
  async photoIdsOf(tripId: string): Promise<{ id: string; time: Date }[]> {
    const rows = await this.db
      .select({ id: tripPhotos.mediaId, time: tripPhotos.takenAt })
      .from(tripPhotos)
      .where(eq(tripPhotos.tripId, tripId))
      .orderBy(asc(tripPhotos.takenAt), asc(tripPhotos.mediaId));
    return rows;
  }

  async deleteAutomaticTrips(ownerId: string): Promise<void> {
    await this.db.delete(trips).where(and(eq(trips.ownerId, ownerId), eq(trips.frozen, literal(false))));
  }

  async deleteTrip(id: string): Promise<void> {
    await this.db.delete(trips).where(eq(trips.id, id));
  }

  /** Inserts a trip and its photos (time order), or replaces the photos of an existing one and its bounds. */
  async writeTrip(
    ownerId: string,
    trip: TripToWrite,
    fields: Partial<Pick<TripRow, 'customTitle' | 'hidden' | 'frozen'>>,
    at: Date,
  ): Promise<void> {
    const first = trip.photos[0];
    const last = trip.photos.at(-1);
    if (first === undefined || last === undefined) throw new RangeError('a trip has at least one photo');
    await this.db
      .insert(trips)
      .values({
        id: trip.id,
        ownerId,
        startsAt: first.time,
        endsAt: last.time,
        createdAt: at,
        updatedAt: at,
        ...fields,
      })
      .onConflictDoUpdate({
        target: trips.id,
        set: { startsAt: first.time, endsAt: last.time, updatedAt: at, ...fields },
      });
    const ids = trip.photos.map((photo) => photo.id);
    await this.db.delete(tripPhotos).where(and(eq(tripPhotos.tripId, trip.id), notInArray(tripPhotos.mediaId, ids)));
    await this.db
      .insert(tripPhotos)
      .values(trip.photos.map((photo) => ({ mediaId: photo.id, tripId: trip.id, ownerId, takenAt: photo.time })))
      .onConflictDoUpdate({
        target: tripPhotos.mediaId,
        set: { tripId: trip.id, takenAt: sql`excluded.taken_at` },
      });
  }

  async updateTrip(id: string, fields: Partial<Pick<TripRow, 'customTitle' | 'hidden' | 'frozen'>>, at: Date) {
    await this.db
      .update(trips)
      .set({ ...fields, updatedAt: at })
      .where(eq(trips.id, id));
  }

  /** A user's trips the viewer may list, latest first: hidden ones and trips of no visible photo only for the owner. */
  async list(ownerId: string, viewerId: string | null, page: PageRequest): Promise<TripRow[]> {
    const { where, orderBy } = keyset(tripsKeyset, page);
    const own = viewerId === ownerId;
    const seen = own
      ? undefined
      : and(
          eq(trips.hidden, literal(false)),
          exists(
            this.db
              .select({ one: sql`1` })
              .from(tripPhotos)
              .innerJoin(mediaRows, eq(mediaRows.id, tripPhotos.mediaId))
              .where(and(eq(tripPhotos.tripId, trips.id), photoVisibleTo(viewerId))),
          ),
        );
    return this.db
      .select()
      .from(trips)
      .where(and(eq(trips.ownerId, ownerId), seen, where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  /** The photos of these trips the viewer may see, in time order, with their cities. */
  async photosSeen(tripIds: string[], viewerId: string | null): Promise<TripPhotoSeen[]> {
    if (tripIds.length === 0) return [];
    return this.db
      .select({
        tripId: tripPhotos.tripId,
        id: mediaRows.id,
        time: tripPhotos.takenAt,
        latitude: mediaRows.latitude,
        longitude: mediaRows.longitude,
        locationPublic: mediaRows.locationPublic,
        cityId: mediaRows.cityId,
        cityName: cityRows.name,
        cityLatitude: cityRows.latitude,
        cityLongitude: cityRows.longitude,
        countryCode: mediaRows.countryCode,
        description: mediaRows.description,
        authorSensitive: mediaRows.authorSensitive,
        contentWarning: mediaRows.contentWarning,
      })
      .from(tripPhotos)
      .innerJoin(mediaRows, eq(mediaRows.id, tripPhotos.mediaId))
      .leftJoin(cityRows, eq(cityRows.id, mediaRows.cityId))
      .where(and(inArray(tripPhotos.tripId, tripIds), photoVisibleTo(viewerId)))
      .orderBy(asc(tripPhotos.tripId), asc(tripPhotos.takenAt), asc(tripPhotos.mediaId));
  }

  async home(userId: string): Promise<TripHomeRow | null> {
    const [row] = await this.db.select().from(tripHomes).where(eq(tripHomes.userId, userId));
    return row ?? null;
  }

  async setHome(row: TripHomeRow): Promise<TripHomeRow> {
    const [saved] = await this.db
      .insert(tripHomes)
      .values(row)
      .onConflictDoUpdate({
        target: tripHomes.userId,
        set: { latitude: row.latitude, longitude: row.longitude, updatedAt: row.updatedAt },
      })
      .returning();
    return saved ?? row;
  }

  async clearHome(userId: string): Promise<boolean> {
    const removed = await this.db
      .delete(tripHomes)
      .where(eq(tripHomes.userId, userId))
      .returning({ id: tripHomes.userId });
    return removed.length > 0;
  }

  /** A row of its own per change: no writer ever waits on another's queue row. */
  async queue(userId: string, at: Date): Promise<void> {
    await this.db.insert(tripRecomputeQueue).values({ id: newId(), userId, queuedAt: at });
  }

  async dequeue(userId: string): Promise<void> {
    await this.db.delete(tripRecomputeQueue).where(eq(tripRecomputeQueue.userId, userId));
  }

  /** Users queued for a recomputation, longest waiting first. */
  async queued(limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ userId: tripRecomputeQueue.userId })
      .from(tripRecomputeQueue)
      .groupBy(tripRecomputeQueue.userId)
      .orderBy(sql`min(${tripRecomputeQueue.queuedAt})`, asc(tripRecomputeQueue.userId))
      .limit(limit);
    return rows.map((row) => row.userId);
  }

  /** Everything trips keeps of a user (their trips, their photos' membership, home, queue row). */
  async eraseUser(userId: string): Promise<void> {
    await this.db.delete(tripPhotos).where(eq(tripPhotos.ownerId, userId));
    await this.db.delete(trips).where(eq(trips.ownerId, userId));
    await this.db.delete(tripHomes).where(eq(tripHomes.userId, userId));
    await this.dequeue(userId);
  }

  /** The data export's trips of a user, in keyset batches by id, each with its photo ids in time order. */
  async exportTrips(userId: string, after: string | null, limit: number) {
    const photoIdsQuery = sql`(SELECT COALESCE(array_agg(${tripPhotos.mediaId} ORDER BY ${tripPhotos.takenAt}, ${tripPhotos.mediaId}), '{}') FROM ${tripPhotos} WHERE ${tripPhotos.tripId} = ${trips.id})`;
    // A statement of its own inside the field: Drizzle leaves a select field's top-level columns unqualified.
    const photoIds = sql<string[]>`${photoIdsQuery}`;
    return this.db
      .select({ ...getTableColumns(trips), photoIds })
      .from(trips)
      .where(and(eq(trips.ownerId, userId), after === null ? undefined : gt(trips.id, after)))
      .orderBy(asc(trips.id))
      .limit(limit);
  }

  async exportHome(userId: string): Promise<TripHomeRow[]> {
    return this.db.select().from(tripHomes).where(eq(tripHomes.userId, userId));
  }
}
