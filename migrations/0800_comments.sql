-- Comments on media posts: top-level comments (depth 0), replies (depth 1) and replies to replies
-- (depth 2). A deleted comment keeps its row as a placeholder (body and mentions erased) so the
-- thread keeps its shape. media.comments_count counts the visible ones (not deleted, author not
-- banned), moved by the comments repository's callers with the media row locked.
CREATE TABLE comments (
  id uuid PRIMARY KEY,
  media_id uuid NOT NULL REFERENCES media (id) ON DELETE CASCADE,
  author_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The direct parent and the top-level comment of the thread (both null at depth 0).
  parent_id uuid REFERENCES comments (id) ON DELETE CASCADE,
  root_id uuid REFERENCES comments (id) ON DELETE CASCADE,
  depth smallint NOT NULL CHECK (depth BETWEEN 0 AND 2),
  body text CHECK (char_length(body) BETWEEN 1 AND 2000),
  -- Mentioned users (ids, resolved when written) and #hashtags of the body.
  mentions uuid[] NOT NULL DEFAULT '{}',
  hashtags text[] NOT NULL DEFAULT '{}',
  -- The author is banned: the comment leaves public threads until the ban is lifted.
  author_banned boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  edited_at timestamptz,
  deleted_at timestamptz,
  -- Who deleted it: author, mediaOwner, moderator or erasure.
  deleted_by text,
  CHECK ((depth = 0) = (parent_id IS NULL) AND (depth = 0) = (root_id IS NULL)),
  CHECK ((deleted_at IS NULL) = (body IS NOT NULL))
);
CREATE INDEX comments_top_level ON comments (media_id, created_at, id) WHERE depth = 0;
CREATE INDEX comments_by_parent ON comments (parent_id, created_at, id);
CREATE INDEX comments_by_root ON comments (root_id);
CREATE INDEX comments_by_author ON comments (author_id);
CREATE INDEX comments_mentions ON comments USING gin (mentions);
CREATE INDEX comments_created ON comments (created_at);
