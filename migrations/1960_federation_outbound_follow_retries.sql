-- A pending remote follow is sent again with backoff, then expired (docs/api.md, Federation, Following
-- remote accounts): how many times its Follow has been sent, and when it is due again (to be sent, or,
-- after the last send, to expire). Null once accepted. Requests pending before start the schedule now.
ALTER TABLE federation_outbound_follows
  ADD COLUMN attempts integer NOT NULL DEFAULT 1,
  ADD COLUMN next_attempt_at timestamptz;
UPDATE federation_outbound_follows SET next_attempt_at = requested_at + interval '1 hour' WHERE state = 'pending';
CREATE INDEX federation_outbound_follows_due ON federation_outbound_follows (next_attempt_at)
  WHERE state = 'pending';
