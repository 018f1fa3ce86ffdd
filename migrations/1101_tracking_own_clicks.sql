-- A click by the media's own creator (signed in, or the web sign-in cookie of their browser on a /go
-- link) is recorded but never credited (docs/api.md, "Clicks, redirects and commissions"). Clicks
-- recorded before this migration keep what they were credited: nothing told them apart then.
ALTER TABLE tracking_clicks ADD COLUMN own_click boolean NOT NULL DEFAULT false;
