-- Reports of media, users and comments by users, and their handling by operators (docs/api.md,
-- Reports and report handling). target_id names a row of another area (no foreign key: the target
-- may be deleted and the report kept); target_user_id is the user the target belongs to (the user
-- reported, the media's owner, the comment's author), kept so a ban still reaches them.
CREATE TABLE reports (
  id uuid PRIMARY KEY,
  reporter_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target_kind text NOT NULL CHECK (target_kind IN ('media', 'user', 'comment')),
  target_id uuid NOT NULL,
  target_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  reason text NOT NULL CHECK (reason IN ('spam', 'nudity', 'harassment', 'violence', 'copyright', 'privacy', 'other')),
  details text,
  -- The locale negotiated for the report's request: the outcome mail is written in it.
  locale text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  resolution text CHECK (resolution IN ('actioned', 'dismissed')),
  action text CHECK (action IN ('hideMedia', 'deleteComment', 'banUser')),
  note text,
  resolved_at timestamptz,
  created_at timestamptz NOT NULL,
  CONSTRAINT reports_resolution_when_resolved CHECK ((status = 'resolved') = (resolution IS NOT NULL AND resolved_at IS NOT NULL))
);
-- One open report per reporter and target, exact under concurrency.
CREATE UNIQUE INDEX reports_one_open ON reports (reporter_id, target_kind, target_id) WHERE status = 'open';
-- Counts per target (open and total), and the other open reports resolved with one.
CREATE INDEX reports_by_target ON reports (target_kind, target_id, status);
-- The admin list, newest first, whole or by status.
-- Reports against a user, whatever they point at (the user, their media, their comments).
CREATE INDEX reports_by_target_user ON reports (target_user_id, status);
CREATE INDEX reports_newest ON reports (created_at DESC, id DESC);
CREATE INDEX reports_by_status ON reports (status, created_at DESC, id DESC);
