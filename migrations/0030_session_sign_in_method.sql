-- How each session was opened: a password, or an identity provider's sign-in (identities area).
-- Account deletion accepts a recent provider sign-in in place of the password (docs/api.md).
ALTER TABLE sessions ADD COLUMN sign_in_method text NOT NULL DEFAULT 'password'
  CHECK (sign_in_method IN ('password', 'google', 'apple', 'facebook'));
