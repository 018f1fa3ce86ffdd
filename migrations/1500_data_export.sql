-- At most one data export per user at a time, across instances (docs/api.md, Data export): a lease
-- taken when GET /api/users/me/export starts, renewed while the archive streams, deleted when the
-- stream ends or fails. A lease whose instance died is not renewed: once expired, the next export
-- takes it over.
CREATE TABLE export_leases (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  -- The export holding it (a random id per export): only its holder renews or releases a lease.
  holder uuid NOT NULL,
  started_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
