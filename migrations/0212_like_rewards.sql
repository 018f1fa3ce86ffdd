-- The first like of each user on each media, remembered so that unliking and liking again does not
-- reward the media owner twice (see ReactionsService.onLikeReceived).
CREATE TABLE like_rewards (
  liker_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  media_id uuid NOT NULL REFERENCES media (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (liker_id, media_id)
);
