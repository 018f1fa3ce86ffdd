-- Posts sent to the fediverse (docs/api.md, Federation; src/areas/federation/outbound/).
-- A post whose public face changed waits here until it has settled (a post of several photos is made
-- from photos uploaded one by one, each a post of its own until then); the job federation-queue then
-- sends what changed: Create, Update or Delete of its Note.
CREATE TABLE federation_post_sync (
  media_id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  due_at timestamptz NOT NULL
);
CREATE INDEX federation_post_sync_due ON federation_post_sync (due_at);
CREATE INDEX federation_post_sync_owner ON federation_post_sync (owner_id);

-- The posts whose Note the owner's remote followers were sent, with a digest of what was sent: an
-- edit sends Update only when the Note changed, and a post leaving the public sends Delete only when
-- it had been sent. No reference to media: a deleted post's row stays until its Delete is sent.
CREATE TABLE federation_sent_posts (
  media_id uuid PRIMARY KEY,
  owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  digest text NOT NULL,
  sent_at timestamptz NOT NULL
);
CREATE INDEX federation_sent_posts_owner ON federation_sent_posts (owner_id);
