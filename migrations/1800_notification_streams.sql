-- The live notification stream (docs/api.md, Notifications, The live stream).
--
-- stream_seq: a notification's position in its owner's stream, the event id's number. Taken from one
-- sequence when the row is inserted and again when a soft-dedup dispatch refreshes it, always under the
-- owner's row lock (dispatch locks the recipient first), so one owner's positions grow in the order
-- their transactions commit: a replay "after position N" misses nothing committed before it.
CREATE SEQUENCE notifications_stream_seq;
ALTER TABLE notifications ADD COLUMN stream_seq bigint;
-- Rows already there take positions in feed order.
UPDATE notifications SET stream_seq = numbered.position
FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS position FROM notifications) AS numbered
WHERE notifications.id = numbered.id;
SELECT setval('notifications_stream_seq', COALESCE((SELECT max(stream_seq) FROM notifications), 0) + 1, false);
ALTER TABLE notifications
  ALTER COLUMN stream_seq SET DEFAULT nextval('notifications_stream_seq'),
  ALTER COLUMN stream_seq SET NOT NULL;
ALTER SEQUENCE notifications_stream_seq OWNED BY notifications.stream_seq;
-- A replay reads one owner's rows after a position, in position order.
CREATE INDEX notifications_stream ON notifications (owner_id, stream_seq);

-- The streams open now, on every instance: the 5-a-user cap counts them here, oldest first by `seq` (the
-- order they were opened in, whatever the instances' clocks). A row is removed when its stream ends; one
-- left by a crashed instance is pushed out by the next streams the user opens.
CREATE TABLE notification_streams (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  opened_at timestamptz NOT NULL
);
CREATE INDEX notification_streams_user ON notification_streams (user_id, seq DESC);
