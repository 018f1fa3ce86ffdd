-- Remote parties of federation (docs/development.md, Federation): a remote actor that follows or
-- likes gets a local "shadow" row of users, marked by its handle (`ana@mastodon.example`): such a row
-- never signs in, gets no mail, and is left out of user search, the sitemap and the users statistic.
-- A handle is not a username (the username rules and their uniqueness stay the local users').
ALTER TABLE users ADD COLUMN remote_handle citext UNIQUE;

-- The remote actors federation knows, each with its shadow user: where to deliver to it, its summary
-- (plain text) and when its document was last fetched (refreshed when older than a day).
CREATE TABLE federation_remote_actors (
  actor_uri text PRIMARY KEY,
  user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  inbox text NOT NULL,
  shared_inbox text,
  summary text,
  fetched_at timestamptz NOT NULL
);
