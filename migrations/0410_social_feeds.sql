-- Social feeds: a user's shareable selection over their own public media, found by an unguessable
-- code. Either a selection by criteria (hashtags, country, city; null = no such criterion) or a
-- hand-picked list of media (social_feed_media), never both (see docs/api.md).
CREATE TABLE social_feeds (
  id uuid PRIMARY KEY,
  code text NOT NULL UNIQUE CHECK (code ~ '^[0-9A-Za-z]{12}$'),
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  description text CHECK (char_length(description) BETWEEN 1 AND 500),
  hashtags text[] CHECK (cardinality(hashtags) BETWEEN 1 AND 10),
  country_code text CHECK (country_code ~ '^[A-Z]{2}$'),
  city_id uuid,
  hand_picked boolean NOT NULL,
  created_at timestamptz NOT NULL,
  CONSTRAINT social_feeds_one_mode CHECK (
    NOT hand_picked OR (hashtags IS NULL AND country_code IS NULL AND city_id IS NULL)
  )
);
CREATE INDEX social_feeds_by_owner ON social_feeds (owner_id, created_at DESC, id DESC);

-- The media of a hand-picked feed; a deleted media leaves its feeds with it.
CREATE TABLE social_feed_media (
  feed_id uuid NOT NULL REFERENCES social_feeds (id) ON DELETE CASCADE,
  media_id uuid NOT NULL REFERENCES media (id) ON DELETE CASCADE,
  PRIMARY KEY (feed_id, media_id)
);
CREATE INDEX social_feed_media_by_media ON social_feed_media (media_id);
