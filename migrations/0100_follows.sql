-- Follow relationships: follower -> followee, at most once, never oneself.
CREATE TABLE follows (
  follower_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  followee_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (follower_id, followee_id),
  CONSTRAINT follows_not_self CHECK (follower_id <> followee_id)
);
-- Keyset pages of "who X follows" and "who follows X", newest follow first.
CREATE INDEX follows_by_follower ON follows (follower_id, created_at DESC, followee_id DESC);
CREATE INDEX follows_by_followee ON follows (followee_id, created_at DESC, follower_id DESC);

-- Pairs that have ever followed: experience for a follow received is given once per pair, so
-- follow/unfollow cycles cannot farm it.
CREATE TABLE follow_rewards (
  follower_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  followee_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (follower_id, followee_id)
);
