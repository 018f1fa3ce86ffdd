-- Moderation of federation (docs/operations.md, Moderation of federation). A domain an operator
-- blocks (normalized: lower case, IDNA, no port; its subdomains covered): `reject` refuses everything
-- of it and delivers nothing to it, `silence` lets its actors reach only the local users who follow
-- them. The public reason may be shown; the private one is the operators'.
CREATE TABLE federation_domain_blocks (
  domain text PRIMARY KEY,
  severity text NOT NULL CHECK (severity IN ('reject', 'silence')),
  public_reason text,
  private_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Delivery health: the outgoing deliveries of the message queue, per domain. Consecutive failures
-- since the last success; once a domain has failed 5 times over an hour its deliveries are held until
-- retry_at (a growing delay), and given up after 7 days of failure (docs/operations.md, Delivery health).
CREATE TABLE federation_domain_health (
  domain text PRIMARY KEY,
  consecutive_failures integer NOT NULL DEFAULT 0,
  failing_since timestamptz,
  backoffs integer NOT NULL DEFAULT 0,
  retry_at timestamptz,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  last_error text
);
CREATE INDEX federation_domain_health_failing ON federation_domain_health (failing_since) WHERE failing_since IS NOT NULL;

-- A user's own domain blocks (accounts): every actor of the domain (and its subdomains) is to them as
-- a user they block (read-model.ts `shownTo`).
CREATE TABLE user_domain_blocks (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  domain text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, domain)
);
CREATE INDEX user_domain_blocks_by_user_time ON user_domain_blocks (user_id, created_at DESC, domain DESC);
