-- Blocks and mutes between users (accounts). A block works both ways at once; a mute is one way.
CREATE TABLE user_blocks (
  blocker_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  blocked_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (blocker_id, blocked_id),
  CONSTRAINT user_blocks_not_self CHECK (blocker_id <> blocked_id)
);
-- The rule looks a pair up both ways; my blocks page newest first.
CREATE INDEX user_blocks_by_blocked ON user_blocks (blocked_id, blocker_id);
CREATE INDEX user_blocks_by_blocker_time ON user_blocks (blocker_id, created_at DESC, blocked_id DESC);

CREATE TABLE user_mutes (
  muter_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  muted_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- true: their notifications to the muter stop too.
  notifications boolean NOT NULL,
  -- null: until unmuted; past it the mute no longer applies (the rule reads it), and the job deletes it.
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (muter_id, muted_id),
  CONSTRAINT user_mutes_not_self CHECK (muter_id <> muted_id)
);
CREATE INDEX user_mutes_by_muter_time ON user_mutes (muter_id, created_at DESC, muted_id DESC);
CREATE INDEX user_mutes_by_muted ON user_mutes (muted_id);
CREATE INDEX user_mutes_expiring ON user_mutes (expires_at) WHERE expires_at IS NOT NULL;
