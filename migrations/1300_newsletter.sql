-- Newsletter subscribers (double opt-in) and the tokens mailed to them (docs/api.md, Newsletter).
-- An address is stored trimmed and lower-cased, once. Status moves pending -> confirmed only through
-- a confirmation token; unsubscribed -> confirmed only through a new confirmation token too.
CREATE TABLE newsletter_subscribers (
  id uuid PRIMARY KEY,
  email text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
  -- The locale of the latest subscription request: the newsletter's mails are written in it.
  locale text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  unsubscribed_at timestamptz
);
-- The admin list, newest first, whole or by status.
CREATE INDEX newsletter_subscribers_newest ON newsletter_subscribers (created_at DESC, id DESC);
CREATE INDEX newsletter_subscribers_by_status ON newsletter_subscribers (status, created_at DESC, id DESC);

-- Only the SHA-256 of a token is stored. Confirmation tokens are single-use (used_at) and short-lived;
-- unsubscribe tokens (one per mail sent) live long and may be used again (unsubscribing is idempotent).
CREATE TABLE newsletter_tokens (
  id uuid PRIMARY KEY,
  subscriber_id uuid NOT NULL REFERENCES newsletter_subscribers (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('confirm', 'unsubscribe')),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
-- The per-address cap on confirmation mails counts a subscriber's recent tokens.
CREATE INDEX newsletter_tokens_by_subscriber ON newsletter_tokens (subscriber_id, purpose, created_at);
