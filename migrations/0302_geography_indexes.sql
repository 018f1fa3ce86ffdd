-- Indexes of the geography tables, built once 0301 has loaded the rows (faster than row by row).
CREATE INDEX cities_by_population ON cities (population DESC, id DESC);
CREATE INDEX cities_country_by_population ON cities (country_code, population DESC, id DESC);
CREATE INDEX cities_name_trgm ON cities USING gin (geo_fold(name) gin_trgm_ops);
-- Reverse geocoding reads a latitude band, then the longitudes in it (src/areas/geography/degree-box.ts).
CREATE INDEX cities_position ON cities (latitude, longitude);
CREATE INDEX countries_name_en_trgm ON countries USING gin (geo_fold(name_en) gin_trgm_ops);
CREATE INDEX countries_name_fr_trgm ON countries USING gin (geo_fold(name_fr) gin_trgm_ops);
ANALYZE regions, subregions, countries, cities;
