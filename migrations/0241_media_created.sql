-- GET /admin/stats counts the posts created in the last day, week and month: a range on this index.
CREATE INDEX media_posts_created ON media (created_at) WHERE kind = 'post';
