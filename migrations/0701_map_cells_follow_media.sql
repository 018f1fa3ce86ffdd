-- The map's cells follow the media's writes in their transaction (src/areas/discovery/map-cell-counts.service.ts);
-- the map-clusters job repairs what no write told them. A cell keeps the sums of its media's
-- positions, so adding or taking out a media is an addition; readers divide by media_count.
ALTER TABLE map_cells RENAME COLUMN latitude TO latitude_sum;
ALTER TABLE map_cells RENAME COLUMN longitude TO longitude_sum;
UPDATE map_cells SET latitude_sum = latitude_sum * media_count, longitude_sum = longitude_sum * media_count;

-- Each media the cells count, at the position they count it: a write takes that contribution out and
-- puts the media's new one in. Filled here from the media placed in public; the job's next run makes
-- the cells agree with it.
CREATE TABLE map_counted_media (
  media_id uuid PRIMARY KEY,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL
);
INSERT INTO map_counted_media (media_id, latitude, longitude)
SELECT id, latitude, longitude FROM media
WHERE kind = 'post' AND published AND flag < 1 AND NOT owner_banned AND location_public
  AND latitude IS NOT NULL AND longitude IS NOT NULL;
