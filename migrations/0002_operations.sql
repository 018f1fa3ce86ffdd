-- Operations: maintenance mode (one row, read by every instance) and the audit log's filters.

CREATE TABLE maintenance_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  enabled boolean NOT NULL DEFAULT false,
  message text,
  retry_after_seconds integer NOT NULL DEFAULT 300,
  updated_at timestamptz
);
INSERT INTO maintenance_state (id) VALUES (true);

-- GET /admin/audit?action=… (exact, or a prefix such as "media."; text_pattern_ops serves both).
CREATE INDEX audit_log_action ON audit_log (action text_pattern_ops, created_at DESC, id DESC);
-- GET /admin/audit?targetType=…&targetId=…
CREATE INDEX audit_log_target ON audit_log (target_type, target_id, created_at DESC, id DESC);
