-- Extensions used across areas; PGlite loads the same ones (src/platform/db/pglite-database.ts).
CREATE EXTENSION IF NOT EXISTS citext;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;

CREATE TABLE users (
  id uuid PRIMARY KEY,
  email citext NOT NULL UNIQUE,
  password_hash text,
  username citext UNIQUE,
  nickname text,
  email_confirmed_at timestamptz,
  username_changed_at timestamptz,
  sponsor_code text NOT NULL UNIQUE,
  sponsored_by uuid REFERENCES users (id) ON DELETE SET NULL,
  level integer NOT NULL DEFAULT 0,
  experience integer NOT NULL DEFAULT 0,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  address jsonb,
  verified_at timestamptz,
  banned_at timestamptz,
  ban_reason text,
  anonymized_at timestamptz,
  deletion_requested_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- Fuzzy and prefix search on names (GET /api/users/search).
CREATE INDEX users_username_trgm ON users USING gin ((lower(username::text)) gin_trgm_ops);
CREATE INDEX users_nickname_trgm ON users USING gin ((lower(nickname)) gin_trgm_ops);
CREATE INDEX users_sponsored_by ON users (sponsored_by, created_at DESC, id DESC) WHERE sponsored_by IS NOT NULL;

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  user_agent text,
  ip text
);
CREATE INDEX sessions_user ON sessions (user_id, created_at DESC, id DESC);

-- Single-use secrets sent by mail: e-mail confirmation, password reset, account deletion.
CREATE TABLE user_tokens (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('confirm-email', 'reset-password', 'delete-account')),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX user_tokens_user ON user_tokens (user_id, purpose);

-- Every admin action: who, what, on which target, with which payload.
CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  actor text NOT NULL,
  action text NOT NULL,
  target_type text,
  target_id text,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_log_created ON audit_log (created_at DESC, id DESC);
