-- A banned owner's media leave every public list and answer 404 to others (media-flags.ts), until the
-- ban is lifted: media keeps this copy of the ban current on user.banned and user.unbanned.
ALTER TABLE media ADD COLUMN owner_banned boolean NOT NULL DEFAULT false;
UPDATE media SET owner_banned = true WHERE owner_id IN (SELECT id FROM users WHERE banned_at IS NOT NULL);
