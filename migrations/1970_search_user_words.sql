-- The words of the user documents, one row a word and a user, in code-point order: the typo tier of
-- user search reads the words nearest the query's in this order (a bounded read at any number of
-- users) where the trigram indexes handed over every name sharing a trigram with the query (half a
-- second at a million users: src/areas/search/user-search.repository.ts). Statement-level triggers
-- keep them in step with the documents in the transaction of every write (a document's upsert, its
-- removal, an erasure, a bulk load).
CREATE TABLE search_user_words (
  word text COLLATE "C" NOT NULL,
  source_id uuid NOT NULL,
  PRIMARY KEY (word, source_id)
);
CREATE INDEX search_user_words_source ON search_user_words (source_id);

CREATE FUNCTION search_user_words_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_user_words (word, source_id)
  SELECT DISTINCT word, d.source_id FROM inserted_rows d, unnest(tsvector_to_array(d.document)) AS word
  WHERE d.kind = 'user'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE FUNCTION search_user_words_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_user_words w USING old_rows o WHERE o.kind = 'user' AND w.source_id = o.source_id;
  INSERT INTO search_user_words (word, source_id)
  SELECT DISTINCT word, d.source_id FROM new_rows d, unnest(tsvector_to_array(d.document)) AS word
  WHERE d.kind = 'user'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE FUNCTION search_user_words_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_user_words w USING deleted_rows o WHERE o.kind = 'user' AND w.source_id = o.source_id;
  RETURN NULL;
END
$$;

CREATE TRIGGER search_user_words_insert AFTER INSERT ON search_documents
  REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION search_user_words_after_insert();
CREATE TRIGGER search_user_words_update AFTER UPDATE ON search_documents
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_user_words_after_update();
CREATE TRIGGER search_user_words_delete AFTER DELETE ON search_documents
  REFERENCING OLD TABLE AS deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION search_user_words_after_delete();

INSERT INTO search_user_words (word, source_id)
SELECT DISTINCT word, d.source_id FROM search_documents d, unnest(tsvector_to_array(d.document)) AS word
WHERE d.kind = 'user';

-- The typo tier no longer reads the users' trigram indexes, and nothing else does (the prefixes read
-- their btrees: 1920_search_users_prefix.sql).
DROP INDEX search_users_name_trgm;
DROP INDEX search_users_label_trgm;
DROP INDEX search_users_body_trgm;
