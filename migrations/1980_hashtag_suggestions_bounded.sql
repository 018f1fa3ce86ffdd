-- Hashtag autocomplete reads a bounded number of tags whatever their number
-- (src/areas/hashtags/suggestion-statements.ts): the first prefix matches in code-point order, ties by
-- tag (the folded tags' btree holds the tag after the folded form, so the order is the index's and the
-- read stops at its limit, and the uses, so the table is not read), and the most used tags (read in
-- that order, folded included, without the table). The similar tags come from the neighbours in the
-- same btree and the most used, no longer from a trigram index, which handed over every tag sharing a
-- trigram with the query.
CREATE INDEX hashtag_uses_folded_tag ON hashtag_uses (folded, tag COLLATE "C") INCLUDE (uses);
-- `uses` is a key here: a change of a tag's count is no longer a HOT update (a post's publication,
-- edit or removal writes an entry in each of the table's indexes for each of its tags).
CREATE INDEX hashtag_uses_most_used ON hashtag_uses (uses DESC, tag COLLATE "C") INCLUDE (folded);
DROP INDEX hashtag_uses_folded;
DROP INDEX hashtag_uses_folded_trgm;
