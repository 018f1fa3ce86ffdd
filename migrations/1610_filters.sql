-- Keyword filters (docs/api.md, Keyword filters): a user's words or phrases that hide, or put behind a
-- warning, what they read in feeds and lists, comments and notifications.
CREATE TABLE filters (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 100),
  contexts text[] NOT NULL CHECK (
    cardinality(contexts) BETWEEN 1 AND 3 AND contexts <@ ARRAY['feeds', 'comments', 'notifications']::text[]
  ),
  action text NOT NULL CHECK (action IN ('warn', 'hide')),
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX filters_by_user ON filters (user_id, created_at DESC, id DESC);

-- A filter's keywords in their order; `folded` is the keyword as matched: lower(unaccent(keyword)),
-- the folding of the search index, computed by the database that folds the texts it is matched with.
CREATE TABLE filter_keywords (
  filter_id uuid NOT NULL REFERENCES filters (id) ON DELETE CASCADE,
  position int NOT NULL CHECK (position BETWEEN 0 AND 49),
  keyword text NOT NULL CHECK (char_length(keyword) BETWEEN 1 AND 100),
  whole_word boolean NOT NULL,
  folded text NOT NULL,
  PRIMARY KEY (filter_id, position)
);
