-- Multi-photo posts (docs/api.md, Posts). Every published photo is a post of one; a post of several
-- photos is anchored by its lead media, whose id is the post's id. post_id is the lead's id on every
-- photo of a post made with POST /api/users/me/posts (the lead included: post_id = id), null on a
-- photo that was never put in a post. A photo with post_id set to another media is a member: never
-- listed on its own. The caption is the lead's description (and hashtags); each photo's own text is
-- its alt_text; post_position orders the photos; photos_count is kept on the lead. map_photo marks the
-- photo that stands for its post on the map: its first photo whose position is public (maybe not the lead).
ALTER TABLE media ADD COLUMN post_id uuid REFERENCES media (id);
ALTER TABLE media ADD COLUMN post_position smallint NOT NULL DEFAULT 0 CHECK (post_position BETWEEN 0 AND 9);
ALTER TABLE media ADD COLUMN photos_count smallint NOT NULL DEFAULT 1 CHECK (photos_count BETWEEN 1 AND 10);
ALTER TABLE media ADD COLUMN map_photo boolean NOT NULL DEFAULT false;
ALTER TABLE media ADD COLUMN alt_text text CHECK (char_length(alt_text) BETWEEN 1 AND 1500);
CREATE INDEX media_post_photos ON media (post_id, post_position) WHERE post_id IS NOT NULL;
