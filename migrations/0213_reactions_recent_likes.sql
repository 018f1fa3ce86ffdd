-- Trending media count the likes of a recent window: a range of this index, media ids included.
CREATE INDEX media_reactions_recent ON media_reactions (type, created_at) INCLUDE (media_id);
