-- Hashtag use counts, derived from media: media events move them at once, the hashtags job rebuilds
-- them. A use is one publicly listed post carrying the tag (published, not flagged, owner not
-- banned), counted on the UTC day the post was created.
CREATE TABLE hashtag_daily_uses (
  tag text NOT NULL,
  day date NOT NULL,
  uses integer NOT NULL CHECK (uses >= 0),
  PRIMARY KEY (tag, day)
);
-- Trending reads two windows of days: an index-only range scan.
CREATE INDEX hashtag_daily_uses_day ON hashtag_daily_uses (day, tag) INCLUDE (uses);

-- All-time uses per tag, for autocomplete. `folded` is the tag without accents (lower(unaccent(tag)));
-- in the "C" collation so a prefix is a plain btree range.
CREATE TABLE hashtag_uses (
  tag text PRIMARY KEY,
  folded text COLLATE "C" NOT NULL,
  uses integer NOT NULL CHECK (uses >= 0)
);
CREATE INDEX hashtag_uses_folded ON hashtag_uses (folded);
CREATE INDEX hashtag_uses_folded_trgm ON hashtag_uses USING gin (folded gin_trgm_ops);

-- How many publicly listed posts carry both tags (each pair stored in both directions), for related.
CREATE TABLE hashtag_pairs (
  tag text NOT NULL,
  other text NOT NULL,
  count integer NOT NULL CHECK (count >= 0),
  PRIMARY KEY (tag, other)
);

-- What the tables above count of each listed post with tags (its tags and day), so a media event
-- can take the post's old contribution out and put the new one in.
CREATE TABLE hashtag_counted_media (
  media_id uuid PRIMARY KEY,
  tags text[] NOT NULL,
  day date NOT NULL
);
