-- Secret share links (docs/api.md, Share links): a link to one of the owner's targets (a post, a
-- bookmark collection; more kinds later) that opens for people without an account. Only the token's
-- SHA-256 is kept, and the optional password's argon2id hash. target_id names a row of another area
-- (no foreign key: the target may go, and the link stops opening). Revoking deletes the row.
CREATE TABLE share_links (
  id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target_kind text NOT NULL CHECK (target_kind ~ '^[a-z][a-z-]{0,31}$'),
  target_id uuid NOT NULL,
  token_hash text NOT NULL UNIQUE,
  password_hash text,
  expires_at timestamptz,
  -- How many times the target was shown: a count only, nothing of who opened it.
  views integer NOT NULL DEFAULT 0 CHECK (views >= 0),
  created_at timestamptz NOT NULL
);
-- The owner's links, newest first.
CREATE INDEX share_links_by_owner ON share_links (owner_id, created_at DESC, id DESC);
