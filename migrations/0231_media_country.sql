-- Trending counts a country's media: its media by id (merged with the likes of the window by media id).
CREATE INDEX media_country ON media (country_code, id) WHERE country_code IS NOT NULL;
