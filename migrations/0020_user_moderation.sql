-- User moderation (issue 12): a ban may end by itself at `banned_until` (null: until lifted by hand).
ALTER TABLE users ADD COLUMN banned_until timestamptz;
-- The bans job finds the bans whose end has passed.
CREATE INDEX users_ban_ends ON users (banned_until) WHERE banned_until IS NOT NULL;
-- GET /admin/users: newest first.
CREATE INDEX users_created ON users (created_at DESC, id DESC);
