-- Web Push (docs/api.md, Push subscriptions): the browsers' push subscriptions of each user, and
-- which flush pushes each of them received (web push has no idempotency key: this is ours).
CREATE TABLE push_subscriptions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The push service's URL for this browser: one browser profile, so one user at a time.
  endpoint text NOT NULL CHECK (char_length(endpoint) BETWEEN 1 AND 2048),
  -- The browser's P-256 public key and authentication secret (base64url), for aes128gcm.
  p256dh text NOT NULL CHECK (char_length(p256dh) = 87),
  auth text NOT NULL CHECK (char_length(auth) = 22),
  -- The language its pushes are written in.
  locale text NOT NULL CHECK (locale IN ('en-US', 'fr-FR')),
  created_at timestamptz NOT NULL,
  CONSTRAINT push_subscriptions_endpoint UNIQUE (endpoint)
);
CREATE INDEX push_subscriptions_user_created ON push_subscriptions (user_id, created_at DESC, id DESC);

-- One row per push a subscription accepted: push_key is the flush's idempotency key of the push
-- (recipient and notification rows), so a flush run again after a failure elsewhere skips it.
CREATE TABLE push_deliveries (
  subscription_id uuid NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  push_key uuid NOT NULL,
  delivered_at timestamptz NOT NULL,
  PRIMARY KEY (subscription_id, push_key)
);
CREATE INDEX push_deliveries_delivered ON push_deliveries (delivered_at);
