-- Media: uploaded photos (posts), avatars and covers. Files live in storage under original_key;
-- variants are derived and cached by the serving route.
CREATE TABLE media (
  id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('post', 'avatar', 'cover')),
  -- Moderation and publication (see docs/api.md, Media states).
  published boolean NOT NULL DEFAULT true,
  flag smallint NOT NULL DEFAULT 0,
  -- The description queue: pending -> claimed -> described | failed.
  describe_status text NOT NULL DEFAULT 'pending' CHECK (describe_status IN ('pending', 'claimed', 'described', 'failed', 'skipped')),
  claimed_until timestamptz,
  describe_attempts integer NOT NULL DEFAULT 0,
  fail_reason text,
  description text,
  description_locale text,
  hashtags text[] NOT NULL DEFAULT '{}',
  -- The stored original.
  original_key text NOT NULL,
  original_format text NOT NULL,
  byte_size integer NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  content_hash text NOT NULL,
  -- Where and when (from EXIF or the uploader); the position is shown only when location_public.
  latitude double precision,
  longitude double precision,
  location_public boolean NOT NULL DEFAULT true,
  taken_at timestamptz,
  city_id uuid,
  country_code text,
  -- Counters kept in step with reactions, bookmarks and comments.
  likes_count integer NOT NULL DEFAULT 0 CHECK (likes_count >= 0),
  dislikes_count integer NOT NULL DEFAULT 0 CHECK (dislikes_count >= 0),
  bookmarks_count integer NOT NULL DEFAULT 0 CHECK (bookmarks_count >= 0),
  comments_count integer NOT NULL DEFAULT 0 CHECK (comments_count >= 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX media_owner ON media (owner_id, kind, created_at DESC, id DESC);
CREATE INDEX media_describe_queue ON media (describe_status, created_at, id) WHERE describe_status IN ('pending', 'claimed');
CREATE INDEX media_position ON media (latitude, longitude) WHERE latitude IS NOT NULL;
CREATE INDEX media_hashtags ON media USING gin (hashtags);

ALTER TABLE users ADD COLUMN avatar_media_id uuid REFERENCES media (id) ON DELETE SET NULL;
ALTER TABLE users ADD COLUMN cover_media_id uuid REFERENCES media (id) ON DELETE SET NULL;
