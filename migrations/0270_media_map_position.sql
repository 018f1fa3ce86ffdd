-- The map's boxes read a two-dimensional index. The btree on (latitude, longitude) bounded a box by
-- its latitudes alone: a box read every entry of its band of latitudes, at every longitude, to keep
-- those of its own longitudes (the whole index for a narrow box from pole to pole). The GiST index
-- on the point (longitude, latitude) reads the box's rectangle only.
CREATE INDEX media_map_position ON media USING gist (point(longitude, latitude))
  WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
DROP INDEX media_position;
