-- Content warnings (docs/api.md, Media: content warnings): a media marked sensitive, with or without a
-- warning text, stays in public lists and carries the warning; pages blur it behind the warning. Apart
-- from the moderators' flag (media.flag, media-flags.ts), which takes a media out of public lists.
-- The author sets it at upload or later; a moderator may impose one (content_warning_by_moderator),
-- which the author may then neither change nor lift.
ALTER TABLE media ADD COLUMN author_sensitive boolean NOT NULL DEFAULT false;
ALTER TABLE media ADD COLUMN content_warning text;
ALTER TABLE media ADD COLUMN content_warning_by_moderator boolean NOT NULL DEFAULT false;
ALTER TABLE media ADD CONSTRAINT media_content_warning_needs_sensitive
  CHECK (content_warning IS NULL OR author_sensitive);
ALTER TABLE media ADD CONSTRAINT media_content_warning_length
  CHECK (content_warning IS NULL OR char_length(content_warning) BETWEEN 1 AND 200);
ALTER TABLE media ADD CONSTRAINT media_content_warning_by_moderator_needs_sensitive
  CHECK (author_sensitive OR NOT content_warning_by_moderator);
