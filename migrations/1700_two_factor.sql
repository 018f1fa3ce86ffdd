-- Two-factor authentication (docs/api.md, Two-factor authentication): a TOTP secret per account,
-- encrypted with a key derived from the server's two-factor secret; its single-use recovery codes,
-- stored as keyed hashes; the sign-in challenges (tickets) already spent; the devices each account
-- signed in from (the new-device mail); and how each session passed a second factor.
CREATE TABLE user_two_factor (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  -- AES-256-GCM: base64url(iv).base64url(tag).base64url(ciphertext) of the base32 secret.
  secret_ciphertext text NOT NULL,
  created_at timestamptz NOT NULL,
  -- Null while the enrolment waits for its first code (POST /api/users/me/two-factor/confirm).
  enabled_at timestamptz,
  -- The last 30-second step whose code was accepted: no code of that step or before is taken again.
  last_used_step bigint
);

CREATE TABLE two_factor_recovery_codes (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- HMAC-SHA256 (hex) of the normalized code under a key derived from the two-factor secret.
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  CONSTRAINT two_factor_recovery_codes_user_code UNIQUE (user_id, code_hash)
);

-- A ticket (POST /api/auth/two-factor) is signed, not stored; once it opened a session its id is kept
-- here until it expires, so it never opens a second one.
CREATE TABLE two_factor_spent_tickets (
  ticket_id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX two_factor_spent_tickets_user ON two_factor_spent_tickets (user_id, expires_at);

-- A device is a user agent and a network (IPv4 /24, IPv6 /48): a sign-in from one not seen on this
-- account in 90 days is mailed to the owner.
CREATE TABLE sign_in_devices (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- SHA-256 (hex) of the user agent and the network: the key, whatever their lengths.
  device_key text NOT NULL,
  user_agent text,
  network text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, device_key)
);

-- How the session passed a second factor: a TOTP code, a recovery code, or a user-verifying passkey.
ALTER TABLE sessions ADD COLUMN second_factor text
  CHECK (second_factor IN ('totp', 'recovery-code', 'user-verification'));
-- Passkeys sign in too (the passkeys work): the method of their sessions.
ALTER TABLE sessions DROP CONSTRAINT IF EXISTS sessions_sign_in_method_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_sign_in_method_check
  CHECK (sign_in_method IN ('password', 'google', 'apple', 'facebook', 'passkey'));
