-- The prefix arms of user search read their first 200 names in the btree's order, ties by id
-- (src/areas/search/user-search.repository.ts prefixArm). With the id outside the index, PostgreSQL
-- sorted every document sharing a nickname to find the first ids ("anna" shared by tens of thousands
-- at a million users): the id in the key gives the order itself, and the read stops at the limit.
CREATE INDEX search_users_name_prefix_ties ON search_documents (name text_pattern_ops, source_id) WHERE kind = 'user';
CREATE INDEX search_users_label_prefix_ties ON search_documents (label text_pattern_ops, source_id) WHERE kind = 'user';
DROP INDEX search_users_name_prefix;
DROP INDEX search_users_label_prefix;
ALTER INDEX search_users_name_prefix_ties RENAME TO search_users_name_prefix;
ALTER INDEX search_users_label_prefix_ties RENAME TO search_users_label_prefix;
