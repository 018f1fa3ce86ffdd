-- Click tracking, conversions and commissions (docs/api.md, "Clicks, redirects and commissions").
-- A click copies what attribution needs from the offer and the media at click time (the offer's
-- establishment, brand, currency and commission rate; the media's owner as the creator), so a later
-- change of the offer never rewrites what a click earned. No foreign keys to other areas' rows: the
-- click is a record of what happened, kept when the offer or the media goes.
CREATE TABLE tracking_clicks (
  -- The reference handed to the partner: 22 base64url characters from 16 random bytes.
  ref text PRIMARY KEY CHECK (ref ~ '^[A-Za-z0-9_-]{22}$'),
  offer_id uuid NOT NULL,
  media_id uuid,
  creator_id uuid,
  establishment_id uuid,
  brand_id uuid,
  viewer_id uuid,
  -- SHA-256 of the client's IP and User-Agent, for anonymous duplicates only; cleared once the
  -- duplicate window has passed (never a raw IP).
  visitor_key text,
  source text NOT NULL CHECK (source IN ('api', 'redirect')),
  -- A known bot or link prefetcher: recorded, never credited.
  bot boolean NOT NULL,
  currency text NOT NULL,
  commission_rate_bps integer NOT NULL CHECK (commission_rate_bps BETWEEN 0 AND 10000),
  created_at timestamptz NOT NULL
);
-- Duplicates: the same viewer (or visitor) on the same offer and media inside the window; the viewer
-- index also finds a user's clicks when their account is erased.
CREATE INDEX tracking_clicks_by_viewer ON tracking_clicks (viewer_id, offer_id, created_at DESC) WHERE viewer_id IS NOT NULL;
CREATE INDEX tracking_clicks_by_visitor ON tracking_clicks (offer_id, visitor_key, created_at DESC) WHERE visitor_key IS NOT NULL;
-- The visitor keys past the window, to clear.
CREATE INDEX tracking_clicks_visitor_age ON tracking_clicks (created_at) WHERE visitor_key IS NOT NULL;
-- Reports per target.
CREATE INDEX tracking_clicks_by_offer ON tracking_clicks (offer_id, created_at);
CREATE INDEX tracking_clicks_by_media ON tracking_clicks (media_id, created_at) WHERE media_id IS NOT NULL;
CREATE INDEX tracking_clicks_by_creator ON tracking_clicks (creator_id, created_at) WHERE creator_id IS NOT NULL;
CREATE INDEX tracking_clicks_by_establishment ON tracking_clicks (establishment_id, created_at) WHERE establishment_id IS NOT NULL;

-- A partner's postback: one row per partner transaction (replays find it).
CREATE TABLE tracking_conversions (
  id uuid PRIMARY KEY,
  click_ref text NOT NULL REFERENCES tracking_clicks (ref) ON DELETE CASCADE,
  partner_transaction_id text NOT NULL UNIQUE,
  -- Integer minor units of the currency (cents for EUR, yen for JPY).
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  -- The creator's commission in the same minor units (0 for an uncredited click).
  commission bigint NOT NULL CHECK (commission >= 0),
  occurred_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX tracking_conversions_by_click ON tracking_conversions (click_ref, created_at);
-- Reports by conversion time.
CREATE INDEX tracking_conversions_by_time ON tracking_conversions (occurred_at);

-- One row per clicker, offer and media seen inside the duplicate window, locked by each click of
-- theirs in its transaction: two identical clicks at the same moment take turns, and the second finds
-- the first. `key` is a SHA-256 of offer, media and clicker (no id or IP in clear); rows older than the
-- window are deleted with the visitor keys.
CREATE TABLE tracking_click_locks (
  key text PRIMARY KEY,
  locked_at timestamptz NOT NULL
);
CREATE INDEX tracking_click_locks_age ON tracking_click_locks (locked_at);
