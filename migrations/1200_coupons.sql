-- Coupons (the coupons area): codes an operator creates, that users redeem once each for rewards
-- (experience, a badge level) until `user_limit` users have. `redemptions_count` is raised by a
-- conditional update (`WHERE redemptions_count < user_limit`), so parallel redemptions cannot pass the
-- limit; the CHECK holds it even against a bug.
CREATE TABLE coupons (
  id uuid PRIMARY KEY,
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9-]{3,32}$'),
  user_limit integer NOT NULL CHECK (user_limit >= 1),
  redemptions_count integer NOT NULL DEFAULT 0,
  rewards jsonb NOT NULL,
  valid_from timestamptz,
  valid_until timestamptz,
  created_at timestamptz NOT NULL,
  CONSTRAINT coupons_within_limit CHECK (redemptions_count >= 0 AND redemptions_count <= user_limit),
  CONSTRAINT coupons_window CHECK (valid_from IS NULL OR valid_until IS NULL OR valid_from < valid_until)
);
CREATE INDEX coupons_created ON coupons (created_at DESC, id DESC);

-- One row per user who redeemed a coupon: at most one per (coupon, user).
CREATE TABLE coupon_redemptions (
  id uuid PRIMARY KEY,
  coupon_id uuid NOT NULL REFERENCES coupons (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  redeemed_at timestamptz NOT NULL,
  CONSTRAINT coupon_redemptions_once UNIQUE (coupon_id, user_id)
);
CREATE INDEX coupon_redemptions_coupon ON coupon_redemptions (coupon_id, redeemed_at DESC, id DESC);
CREATE INDEX coupon_redemptions_user ON coupon_redemptions (user_id);
