-- The search index: one derived document per public user and per publicly listed media post, kept
-- current by the search area on writes and repaired by the search-index job. Texts are stored
-- normalized (lower case, unaccented) so matching ignores case and accents; `document` is their
-- full text in the `simple` configuration (no stemming, no stop words: names and tags in any language).
CREATE TABLE search_documents (
  kind text NOT NULL CHECK (kind IN ('user', 'media')),
  source_id uuid NOT NULL,
  -- users: the username; media: empty. Matched exactly and by prefix.
  name text NOT NULL,
  -- users: the nickname; media: the hashtags. Matched exactly and by prefix.
  label text NOT NULL,
  -- Everything indexed, for trigram (typo-tolerant) word matching.
  body text NOT NULL,
  document tsvector NOT NULL,
  -- The source's updated_at when it was indexed: a source updated later is stale here.
  source_updated_at timestamptz NOT NULL,
  indexed_at timestamptz NOT NULL,
  PRIMARY KEY (kind, source_id)
);
-- Every arm of a user search has its index, so a query reads matches only (a BitmapOr), never the table.
-- fastupdate off: each write goes straight into the index instead of a pending list that every search
-- would scan (and that makes the planner cost the index as if it were large until a vacuum).
CREATE INDEX search_users_name_trgm ON search_documents USING gin (name gin_trgm_ops) WITH (fastupdate = off) WHERE kind = 'user';
CREATE INDEX search_users_label_trgm ON search_documents USING gin (label gin_trgm_ops) WITH (fastupdate = off) WHERE kind = 'user';
CREATE INDEX search_users_body_trgm ON search_documents USING gin (body gin_trgm_ops) WITH (fastupdate = off) WHERE kind = 'user';
CREATE INDEX search_users_document ON search_documents USING gin (document) WITH (fastupdate = off) WHERE kind = 'user';
CREATE INDEX search_media_body_trgm ON search_documents USING gin (body gin_trgm_ops) WITH (fastupdate = off) WHERE kind = 'media';
CREATE INDEX search_media_document ON search_documents USING gin (document) WITH (fastupdate = off) WHERE kind = 'media';

-- The last full rebuild (POST /admin/{users,media}/reindex-all) and the last repair (the search-index
-- job) of each kind, for GET /admin/search/health.
CREATE TABLE search_runs (
  kind text NOT NULL CHECK (kind IN ('user', 'media')),
  run text NOT NULL CHECK (run IN ('rebuild', 'repair')),
  finished_at timestamptz NOT NULL,
  report jsonb NOT NULL,
  PRIMARY KEY (kind, run)
);
