-- Nearby and recommended searches: the position as a point on the earth (cube + earthdistance), so an
-- earth_box filter reads only the media around a centre. Only rows with a position are indexed.
CREATE INDEX media_earth_position ON media USING gist (ll_to_earth(latitude, longitude))
  WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
