-- Passkeys (WebAuthn credentials) registered to accounts, and the challenges issued for them
-- (docs/api.md, Passkeys). A session may now be opened with a passkey.
ALTER TABLE sessions DROP CONSTRAINT sessions_sign_in_method_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_sign_in_method_check
  CHECK (sign_in_method IN ('password', 'google', 'apple', 'facebook', 'passkey'));

CREATE TABLE passkeys (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The authenticator's credential id (base64url): one credential belongs to one account.
  credential_id text NOT NULL,
  -- The COSE public key (base64url); a public key, not a secret, but never shown nor exported.
  public_key text NOT NULL,
  -- The signature counter last seen (0 for authenticators that keep none; a uint32).
  counter bigint NOT NULL DEFAULT 0 CHECK (counter >= 0 AND counter <= 4294967295),
  -- Transports the browser reported (usb, nfc, ble, internal, hybrid...), a JSON array of strings.
  transports jsonb NOT NULL DEFAULT '[]',
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
  -- singleDevice or multiDevice (backup eligible), and whether it is backed up (synced).
  device_type text NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up boolean NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  CONSTRAINT passkeys_credential_id UNIQUE (credential_id)
);
CREATE INDEX passkeys_user_created ON passkeys (user_id, created_at DESC, id DESC);

-- A challenge is single use (deleted when a response names it) and lives five minutes. A
-- registration challenge belongs to the account that asked for it; a sign-in one to nobody.
CREATE TABLE passkey_challenges (
  challenge text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('registration', 'sign-in')),
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  CHECK ((purpose = 'registration') = (user_id IS NOT NULL))
);
CREATE INDEX passkey_challenges_expiry ON passkey_challenges (expires_at);
CREATE INDEX passkey_challenges_user ON passkey_challenges (user_id) WHERE user_id IS NOT NULL;
