-- The catalogue: brands, establishments (sustainable-tourism places) and the offers the service earns
-- commissions on. Ids are UUIDs; external_id is the partner's or the import file's own key (imports
-- upsert by it). Texts per locale are jsonb objects { "en-US": ..., "fr-FR": ... }; en-US is required
-- where a text is (the fallback of every other locale).
-- search_text is generated: the folded (lower case, unaccented) words a search matches, by full text
-- (`simple` configuration: names in any language) and by trigram (typos).

CREATE TABLE brands (
  id uuid PRIMARY KEY,
  external_id text NOT NULL UNIQUE CHECK (length(external_id) BETWEEN 1 AND 200),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  website text CHECK (website ~* '^https?://'),
  description jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(description) = 'object'),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- The brand list: by name, then id.
CREATE INDEX brands_by_name ON brands (name, id);

CREATE TABLE establishments (
  id uuid PRIMARY KEY,
  external_id text NOT NULL UNIQUE CHECK (length(external_id) BETWEEN 1 AND 200),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('hotel', 'guesthouse', 'hostel', 'campsite', 'ecolodge', 'restaurant',
    'activity', 'tour', 'shop')),
  labels text[] NOT NULL DEFAULT '{}' CHECK (labels <@ ARRAY['green-key', 'eu-ecolabel', 'ecotourism-australia',
    'b-corp', 'gstc', 'travelife', 'biosphere', 'green-globe', 'earthcheck', 'clef-verte', 'ecocert',
    'organic', 'fair-trade', 'local-sourcing', 'zero-waste', 'renewable-energy', 'accessible']::text[]),
  address text,
  city_id uuid REFERENCES cities (id),
  country_code text NOT NULL REFERENCES countries (alpha2),
  latitude double precision CHECK (latitude BETWEEN -90 AND 90),
  longitude double precision CHECK (longitude BETWEEN -180 AND 180),
  brand_id uuid REFERENCES brands (id) ON DELETE SET NULL,
  website text CHECK (website ~* '^https?://'),
  description jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(description) = 'object'),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  search_text text GENERATED ALWAYS AS (geo_fold(name || ' ' || coalesce(description ->> 'en-US', '') || ' '
    || coalesce(description ->> 'fr-FR', ''))) STORED,
  CONSTRAINT establishments_position CHECK ((latitude IS NULL) = (longitude IS NULL))
);
-- Lists: newest first, in a city, a country or a brand.
CREATE INDEX establishments_by_created ON establishments (created_at DESC, id DESC) WHERE active;
CREATE INDEX establishments_city ON establishments (city_id, created_at DESC, id DESC) WHERE active;
CREATE INDEX establishments_country ON establishments (country_code, created_at DESC, id DESC) WHERE active;
CREATE INDEX establishments_brand ON establishments (brand_id, created_at DESC, id DESC);
CREATE INDEX establishments_labels ON establishments USING gin (labels);
-- Nearest first (a nearest-neighbour scan of the earth position, like media_earth_position).
CREATE INDEX establishments_earth_position ON establishments USING gist (ll_to_earth(latitude, longitude))
  WHERE latitude IS NOT NULL AND active;
CREATE INDEX establishments_search_document ON establishments USING gin (to_tsvector('simple', search_text)) WHERE active;
CREATE INDEX establishments_search_trgm ON establishments USING gin (search_text gin_trgm_ops) WHERE active;

CREATE TABLE offers (
  id uuid PRIMARY KEY,
  external_id text NOT NULL UNIQUE CHECK (length(external_id) BETWEEN 1 AND 200),
  title jsonb NOT NULL CHECK (jsonb_typeof(title) = 'object' AND title ? 'en-US'),
  description jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(description) = 'object'),
  establishment_id uuid REFERENCES establishments (id) ON DELETE CASCADE,
  brand_id uuid REFERENCES brands (id) ON DELETE CASCADE,
  -- Prices in integer minor units of `currency` (ISO 4217, src/areas/catalogue/currencies.ts).
  price_min integer CHECK (price_min >= 0),
  price_max integer CHECK (price_max >= 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  -- The creator's share of a conversion, in basis points (1/100 of a percent).
  commission_rate_bps integer NOT NULL CHECK (commission_rate_bps BETWEEN 0 AND 10000),
  partner_url text NOT NULL CHECK (partner_url ~* '^https?://[^\s]+$' AND length(partner_url) <= 2000),
  valid_from timestamptz,
  valid_until timestamptz,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  search_text text GENERATED ALWAYS AS (geo_fold(coalesce(title ->> 'en-US', '') || ' ' || coalesce(title ->> 'fr-FR', '')
    || ' ' || coalesce(description ->> 'en-US', '') || ' ' || coalesce(description ->> 'fr-FR', ''))) STORED,
  CONSTRAINT offers_owner CHECK (establishment_id IS NOT NULL OR brand_id IS NOT NULL),
  CONSTRAINT offers_price_range CHECK (price_min IS NULL OR price_max IS NULL OR price_min <= price_max),
  CONSTRAINT offers_validity CHECK (valid_from IS NULL OR valid_until IS NULL OR valid_from < valid_until)
);
CREATE INDEX offers_by_created ON offers (created_at DESC, id DESC) WHERE active;
CREATE INDEX offers_establishment ON offers (establishment_id, created_at DESC, id DESC);
CREATE INDEX offers_brand ON offers (brand_id, created_at DESC, id DESC);
CREATE INDEX offers_search_document ON offers USING gin (to_tsvector('simple', search_text)) WHERE active;
CREATE INDEX offers_search_trgm ON offers USING gin (search_text gin_trgm_ops) WHERE active;
