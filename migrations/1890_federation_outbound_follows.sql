-- Local users following remote accounts (docs/api.md, Federation): the Follow sent to the remote
-- actor (its id, which its Accept or Reject names), and whether it was accepted. The follow itself
-- (counters, lists) is a row of `follows` once accepted; until then only this row says it was asked.
CREATE TABLE federation_outbound_follows (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  remote_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  follow_uri text NOT NULL UNIQUE,
  state text NOT NULL CHECK (state IN ('pending', 'accepted')),
  requested_at timestamptz NOT NULL,
  accepted_at timestamptz,
  PRIMARY KEY (user_id, remote_user_id)
);
CREATE INDEX federation_outbound_follows_remote_user ON federation_outbound_follows (remote_user_id);
CREATE INDEX federation_outbound_follows_list ON federation_outbound_follows (user_id, requested_at DESC, remote_user_id DESC);
