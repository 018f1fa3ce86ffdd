import { boolean, doublePrecision, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../platform/db/columns.ts';

export const trips = pgTable('trips', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  customTitle: text('custom_title'),
  hidden: boolean('hidden').notNull().default(false),
  frozen: boolean('frozen').notNull().default(false),
  startsAt: timestamptz('starts_at').notNull(),
  endsAt: timestamptz('ends_at').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
export type TripRow = typeof trips.$inferSelect;

export const tripPhotos = pgTable('trip_photos', {
  mediaId: uuid('media_id').primaryKey(),
  tripId: uuid('trip_id').notNull(),
  ownerId: uuid('owner_id').notNull(),
  takenAt: timestamptz('taken_at').notNull(),
});
export type TripPhotoRow = typeof tripPhotos.$inferSelect;

export const tripHomes = pgTable('trip_homes', {
  userId: uuid('user_id').primaryKey(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
export type TripHomeRow = typeof tripHomes.$inferSelect;

export const tripRecomputeQueue = pgTable('trip_recompute_queue', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  queuedAt: timestamptz('queued_at').notNull(),
});
