-- Comments written from other servers (docs/api.md, Federation): a remote actor's reply to a local
-- post is a comment of its shadow user; this keeps the URI of the Note it came from, so that the
-- actor's Update of the Note edits the comment and its Delete removes it, and the same Note delivered
-- twice makes one comment. `media_id` is the comment's post, for a reply to this comment. The row
-- outlives the comment's soft deletion (a Create of a Note already deleted does not bring it back)
-- and goes with the comment's row.
CREATE TABLE federation_remote_comments (
  comment_id uuid PRIMARY KEY REFERENCES comments (id) ON DELETE CASCADE,
  object_uri text NOT NULL UNIQUE,
  media_id uuid NOT NULL,
  created_at timestamptz NOT NULL
);
