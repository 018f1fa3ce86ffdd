-- Per-user counts of the feed, so meta.total and unread-count read one row instead of counting up to
-- every notification of the user. Statement-level triggers with transition tables keep them exact in
-- the same transaction as every write (dispatch, dedup refresh, read, mark-all-read, delete, cascades).
CREATE TABLE notification_counters (
  owner_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  total integer NOT NULL DEFAULT 0 CHECK (total >= 0),
  unread integer NOT NULL DEFAULT 0 CHECK (unread >= 0)
);

CREATE FUNCTION notification_counters_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notification_counters AS c (owner_id, total, unread)
  SELECT owner_id, count(*), count(*) FILTER (WHERE read_at IS NULL) FROM inserted_rows GROUP BY owner_id
  ON CONFLICT (owner_id) DO UPDATE SET total = c.total + EXCLUDED.total, unread = c.unread + EXCLUDED.unread;
  RETURN NULL;
END
$$;

CREATE FUNCTION notification_counters_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notification_counters AS c SET unread = c.unread + d.delta
  FROM (
    SELECT n.owner_id, sum((n.read_at IS NULL)::int - (o.read_at IS NULL)::int) AS delta
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    GROUP BY n.owner_id
  ) d
  WHERE c.owner_id = d.owner_id AND d.delta <> 0;
  RETURN NULL;
END
$$;

CREATE FUNCTION notification_counters_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE notification_counters AS c SET total = c.total - d.total, unread = c.unread - d.unread
  FROM (
    SELECT owner_id, count(*) AS total, count(*) FILTER (WHERE read_at IS NULL) AS unread
    FROM deleted_rows GROUP BY owner_id
  ) d
  WHERE c.owner_id = d.owner_id;
  RETURN NULL;
END
$$;

CREATE TRIGGER notification_counters_insert AFTER INSERT ON notifications
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_counters_after_insert();
CREATE TRIGGER notification_counters_update AFTER UPDATE ON notifications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_counters_after_update();
CREATE TRIGGER notification_counters_delete AFTER DELETE ON notifications
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_counters_after_delete();

INSERT INTO notification_counters (owner_id, total, unread)
SELECT owner_id, count(*), count(*) FILTER (WHERE read_at IS NULL) FROM notifications GROUP BY owner_id;
