-- The push flush claims a recipient's rows before it sends (a lease, so a crashed instance's claim
-- lapses), which makes the flush idempotent: two instances, or a retried job, never push a row twice.
-- push_rejections counts provider answers of 400 for the row: the first keeps it for the next flush,
-- the second gives up on it.
ALTER TABLE notifications
  ADD COLUMN push_claimed_until timestamptz,
  ADD COLUMN push_rejections smallint NOT NULL DEFAULT 0;
