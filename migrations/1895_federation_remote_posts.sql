-- Remote posts (docs/api.md, Federation): the public notes of remote actors that local users follow,
-- kept as references (their media stay on their servers: only URLs are kept), pruned by age (the job
-- remote-posts). The author is the actor's shadow user; its erasure takes its posts.
CREATE TABLE federation_remote_posts (
  id uuid PRIMARY KEY,
  uri text NOT NULL UNIQUE,
  author_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The link to the original (the note's http(s) `url`, else its URI).
  url text NOT NULL,
  -- The note's content and summary (content warning) as plain text.
  content text,
  summary text,
  sensitive boolean NOT NULL DEFAULT false,
  -- The note's `published`, never later than its arrival (a date in the future would pin it on top).
  published_at timestamptz NOT NULL,
  edited_at timestamptz,
  received_at timestamptz NOT NULL,
  -- [{url, mediaType, name, width, height}]: http(s) URLs of its Image and Document attachments.
  attachments jsonb NOT NULL DEFAULT '[]'::jsonb
);
CREATE INDEX federation_remote_posts_author_published ON federation_remote_posts (author_id, published_at DESC, id DESC);
CREATE INDEX federation_remote_posts_published ON federation_remote_posts (published_at);

-- A local user's like of a remote post (sent as Like; its id kept for the Undo).
CREATE TABLE federation_remote_post_likes (
  post_id uuid NOT NULL REFERENCES federation_remote_posts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  activity_uri text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (post_id, user_id)
);
CREATE INDEX federation_remote_post_likes_user ON federation_remote_post_likes (user_id);

-- A local user's reply to a remote post (sent as Create(Note) with inReplyTo), kept as its text.
CREATE TABLE federation_remote_post_replies (
  id uuid PRIMARY KEY,
  post_id uuid NOT NULL REFERENCES federation_remote_posts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  text text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX federation_remote_post_replies_post ON federation_remote_post_replies (post_id, user_id, created_at);
CREATE INDEX federation_remote_post_replies_user ON federation_remote_post_replies (user_id);

-- The remote actor's avatar (its `icon`), shown beside its posts; an http(s) URL, never fetched here.
ALTER TABLE federation_remote_actors ADD COLUMN avatar_url text;
