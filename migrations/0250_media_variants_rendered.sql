-- When the media-variants job rendered a media's common variants (thumb, small and large WebP, large
-- JPEG); null: not yet. An upload leaves it null, which is what queues the media for the job; media
-- uploaded before this column get their common variants from the job too, newest first.
ALTER TABLE media ADD COLUMN variants_rendered_at timestamptz;
CREATE INDEX media_variants_pending ON media (created_at DESC, id DESC) WHERE variants_rendered_at IS NULL;
