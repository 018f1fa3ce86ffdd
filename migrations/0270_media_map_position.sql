-- The map's boxes read a two-dimensional index. The btree on (latitude, longitude) bounded a box by
-- its latitudes alone: a box read every entry of its band of latitudes, at every longitude, to keep
-- those of its own longitudes (the whole index for a narrow box from pole to pole). The GiST index
-- on the point (longitude, latitude) reads the box's rectangle only.
-- IF NOT EXISTS: on a large table an operator may build it beforehand without blocking writes
-- (CREATE INDEX CONCURRENTLY under this name, as docs/operations.md says); this then only drops the old one.
CREATE INDEX IF NOT EXISTS media_map_position ON media USING gist (point(longitude, latitude))
  WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
DROP INDEX IF EXISTS media_position;
