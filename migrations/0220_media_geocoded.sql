-- When a media's position was reverse-geocoded (at upload, or by POST /admin/media/backfill-geo).
-- Set even when no city was found (at sea), so the backfill never examines a media twice.
ALTER TABLE media ADD COLUMN geocoded_at timestamptz;
-- What the backfill still has to do: positioned media never geocoded.
CREATE INDEX media_geocode_pending ON media (id)
  WHERE geocoded_at IS NULL AND latitude IS NOT NULL AND longitude IS NOT NULL;
