-- Moderation decisions a user may appeal, their appeals, the mailed appeal links of banned users, and
-- the locale a user is told them in (docs/api.md, Moderation decisions and appeals). target_id names
-- a row of another area (the media, the comment, the user banned): no foreign key, the target may go.
CREATE TABLE moderation_decisions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('mediaHidden', 'commentDeleted', 'userBanned')),
  target_id uuid NOT NULL,
  -- A comment's media (commentDeleted); the media itself (mediaHidden).
  media_id uuid,
  -- mediaHidden: the flag a reversal puts back.
  previous_flag smallint,
  -- commentDeleted: the text the placeholder lost, given back by a reversal.
  removed_text text,
  report_id uuid,
  report_reason text,
  note text,
  -- userBanned: when the ban ends by itself (null: until lifted).
  ban_until timestamptz,
  created_at timestamptz NOT NULL,
  appeal_until timestamptz NOT NULL,
  reversed_at timestamptz
);
-- The user's decisions, newest first.
CREATE INDEX moderation_decisions_by_user ON moderation_decisions (user_id, created_at DESC, id DESC);

-- One appeal per decision, exact under concurrency (the unique decision_id).
CREATE TABLE appeals (
  id uuid PRIMARY KEY,
  decision_id uuid NOT NULL UNIQUE REFERENCES moderation_decisions (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  text text NOT NULL,
  -- The locale negotiated for the appeal's request: the outcome mail is written in it.
  locale text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'upheld', 'reversed')),
  -- The moderator's answer, told to the user with the outcome.
  response text,
  created_at timestamptz NOT NULL,
  decided_at timestamptz,
  CONSTRAINT appeals_decided_when_not_pending CHECK ((status = 'pending') = (decided_at IS NULL))
);
CREATE INDEX appeals_by_user ON appeals (user_id, created_at DESC, id DESC);
CREATE INDEX appeals_newest ON appeals (created_at DESC, id DESC);
CREATE INDEX appeals_by_status ON appeals (status, created_at DESC, id DESC);

-- The single-use link mailed to a banned user (only its SHA-256 is kept), valid until the window closes.
CREATE TABLE appeal_links (
  decision_id uuid PRIMARY KEY REFERENCES moderation_decisions (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

-- The locale a user's decision mails are written in: the one they registered in (users have no
-- locale of their own).
CREATE TABLE moderation_locales (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  locale text NOT NULL,
  updated_at timestamptz NOT NULL
);
