-- User search's prefix arms (username or nickname LIKE 'query%') on btrees: a range of the sorted
-- names, whose cost is the matches', where the trigram indexes intersect the posting lists of the
-- query's trigrams, which grow with the users (a common syllable is in a tenth of all names).
-- text_pattern_ops: LIKE's prefix becomes an index range whatever the database's collation.
CREATE INDEX search_users_name_prefix ON search_documents (name text_pattern_ops) WHERE kind = 'user';
CREATE INDEX search_users_label_prefix ON search_documents (label text_pattern_ops) WHERE kind = 'user';
