-- Reactions: at most one like or dislike per user and media. media.likes_count and
-- media.dislikes_count are kept in step by the statements of the reactions repository, which change
-- a reaction and its counters in one statement (see reactions.repository.ts).
CREATE TABLE media_reactions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  media_id uuid NOT NULL REFERENCES media (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('like', 'dislike')),
  -- When this reaction took its current type (a switch like <-> dislike counts as a new reaction).
  created_at timestamptz NOT NULL,
  CONSTRAINT media_reactions_user_media UNIQUE (user_id, media_id)
);
-- A user's likes or dislikes, newest first.
CREATE INDEX media_reactions_by_user ON media_reactions (user_id, type, created_at DESC, id DESC);
-- A media's likers or dislikers, newest first.
CREATE INDEX media_reactions_by_media ON media_reactions (media_id, type, created_at DESC, id DESC);
