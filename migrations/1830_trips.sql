-- Trips: a user's placed photos grouped by place and time (docs/api.md, Trips). Automatic trips are
-- recomputed from media; frozen ones (edited by their owner) keep exactly their photos.
CREATE TABLE trips (
  id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The owner's title; null: the cities and dates, in the viewer's locale.
  custom_title text CHECK (char_length(custom_title) BETWEEN 1 AND 120),
  hidden boolean NOT NULL DEFAULT false,
  -- Edited by the owner (renamed, hidden, split, merged): recomputation leaves it and its photos alone.
  frozen boolean NOT NULL DEFAULT false,
  -- The first and last photo's time (capture, else upload), kept for the list's order.
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (ends_at >= starts_at)
);
-- A user's trips, latest first.
CREATE INDEX trips_by_owner ON trips (owner_id, starts_at DESC, id DESC);

-- The photos of each trip: a photo is in at most one trip; a deleted media leaves its trip.
CREATE TABLE trip_photos (
  media_id uuid PRIMARY KEY REFERENCES media (id) ON DELETE CASCADE,
  trip_id uuid NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  taken_at timestamptz NOT NULL
);
CREATE INDEX trip_photos_by_trip ON trip_photos (trip_id, taken_at, media_id);
CREATE INDEX trip_photos_by_owner ON trip_photos (owner_id);

-- The home position a user set for their trips (private to them).
CREATE TABLE trip_homes (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  updated_at timestamptz NOT NULL
);

-- Users whose trips must be recomputed: a row filed in the transaction of each media change (its own
-- id, so two writers never wait on one row), taken after the commit, and by the job `trips` for any
-- left behind.
CREATE TABLE trip_recompute_queue (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  queued_at timestamptz NOT NULL
);
CREATE INDEX trip_recompute_queue_by_user ON trip_recompute_queue (user_id);
CREATE INDEX trip_recompute_queue_by_time ON trip_recompute_queue (queued_at);

-- Existing photos get their trips at the job's first run.
INSERT INTO trip_recompute_queue (id, user_id, queued_at)
SELECT gen_random_uuid(), owner_id, now() FROM (SELECT DISTINCT owner_id FROM media WHERE kind = 'post' AND latitude IS NOT NULL) AS owners;
