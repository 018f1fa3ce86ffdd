-- In-app notifications. title/body are rendered at read time and never stored.
CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('follow.received', 'badge.earned', 'user.level.up', 'user.title.up')),
  data jsonb NOT NULL,
  dedup_key text,
  -- true while this row may absorb a later dispatch with the same dedup_key; dispatch clears it once
  -- the row is older than the dedup window, so the unique index below lets a new row in.
  dedup_open boolean NOT NULL DEFAULT false,
  read_at timestamptz,
  pushed_at timestamptz,
  created_at timestamptz NOT NULL
);
-- The feed (newest first) and its unread filter.
CREATE INDEX notifications_feed ON notifications (owner_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread ON notifications (owner_id, created_at DESC, id DESC) WHERE read_at IS NULL;
-- The push flush walks recipients with unpushed rows.
CREATE INDEX notifications_unpushed ON notifications (owner_id, created_at, id) WHERE pushed_at IS NULL;
-- Soft dedup: at most one open unread row per (owner, dedup_key); INSERT ... ON CONFLICT merges into it.
CREATE UNIQUE INDEX notifications_dedup ON notifications (owner_id, dedup_key) WHERE dedup_open AND read_at IS NULL;

-- Preference overrides, one row per (kind, channel) cell; absent cells are true.
CREATE TABLE notification_preferences (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('inApp', 'push')),
  enabled boolean NOT NULL,
  PRIMARY KEY (user_id, kind, channel)
);
