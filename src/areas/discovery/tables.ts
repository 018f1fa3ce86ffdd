import { doublePrecision, integer, pgTable, primaryKey, smallint, uuid } from 'drizzle-orm/pg-core';

/** The map's clusters, one row per non-empty grid cell of each precomputed zoom level (map-grid.ts). */
export const mapCells = pgTable(
  'map_cells',
  {
    zoom: smallint('zoom').notNull(),
    cellY: integer('cell_y').notNull(),
    cellX: integer('cell_x').notNull(),
    mediaCount: integer('media_count').notNull(),
    // Sums of the media's positions (their mean is the sum over mediaCount): a media in or out is an addition.
    latitudeSum: doublePrecision('latitude_sum').notNull(),
    longitudeSum: doublePrecision('longitude_sum').notNull(),
    representativeId: uuid('representative_id').notNull(),
    representativeLikes: integer('representative_likes').notNull(),
  },
  (table) => [primaryKey({ columns: [table.zoom, table.cellY, table.cellX] })],
);
export type MapCellRow = typeof mapCells.$inferSelect;

/** Each media the cells count and the position they count it at, so a write can take it out again. */
export const mapCountedMedia = pgTable('map_counted_media', {
  mediaId: uuid('media_id').primaryKey(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
});
