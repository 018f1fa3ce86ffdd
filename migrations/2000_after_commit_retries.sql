-- After-commit work that failed (a like's move of the map's representatives, a post's hashtag
-- resync), kept to be tried again by the job after-commit-retries (src/platform/events/
-- after-commit-retries.ts): one row per work and key, however often it failed. `filing` changes at
-- every failure filed, so a retry in progress never removes a later failure's row.
CREATE TABLE after_commit_retries (
  work text NOT NULL,
  key text NOT NULL,
  filing uuid NOT NULL,
  attempts integer NOT NULL,
  next_attempt_at timestamptz NOT NULL,
  last_error text NOT NULL,
  filed_at timestamptz NOT NULL,
  PRIMARY KEY (work, key)
);
CREATE INDEX after_commit_retries_due ON after_commit_retries (next_attempt_at);
