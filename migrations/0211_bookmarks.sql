-- Bookmarks: a user keeps media, optionally sorted into named collections of their own.
CREATE TABLE bookmark_collections (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 60),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- The target of the bookmarks' (user_id, collection_id) key: a bookmark can only sit in a collection of its own user.
  CONSTRAINT bookmark_collections_user_id UNIQUE (user_id, id)
);
-- Names are unique per user whatever their case.
CREATE UNIQUE INDEX bookmark_collections_user_name ON bookmark_collections (user_id, lower(name));
CREATE INDEX bookmark_collections_by_user ON bookmark_collections (user_id, created_at DESC, id DESC);

-- media.bookmarks_count is kept in step by the statements of the bookmarks repository.
CREATE TABLE bookmarks (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  media_id uuid NOT NULL REFERENCES media (id) ON DELETE CASCADE,
  collection_id uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT bookmarks_user_media UNIQUE (user_id, media_id),
  -- Deleting a collection keeps its bookmarks, outside any collection.
  CONSTRAINT bookmarks_collection FOREIGN KEY (user_id, collection_id)
    REFERENCES bookmark_collections (user_id, id) ON DELETE SET NULL (collection_id)
);
CREATE INDEX bookmarks_by_user ON bookmarks (user_id, created_at DESC, id DESC);
CREATE INDEX bookmarks_by_collection ON bookmarks (user_id, collection_id, created_at DESC, id DESC);
