-- Identities of identity providers (Google, Apple, Facebook) linked to accounts (docs/api.md, Sign-in
-- with an identity provider). One person of a provider (provider, subject) belongs to one account,
-- and an account holds at most one identity per provider.
CREATE TABLE user_identities (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('google', 'apple', 'facebook')),
  -- The provider's stable id of the person (`sub`, or Facebook's user id).
  subject text NOT NULL,
  -- The address the provider gave at the last sign-in or link (may differ from the account's).
  email text,
  linked_at timestamptz NOT NULL,
  last_sign_in_at timestamptz,
  CONSTRAINT user_identities_provider_subject UNIQUE (provider, subject),
  CONSTRAINT user_identities_user_provider UNIQUE (user_id, provider)
);
