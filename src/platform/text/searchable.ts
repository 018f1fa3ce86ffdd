/**
 * Whether a search query holds something the search indexes can look up: a letter or a digit, of any
 * script. A query of punctuation, symbols or emoji alone (`!`, `-`, `??`, `🙂`) gives the trigram and
 * full-text indexes no key, so PostgreSQL would read every entry of the index to find nothing (a fifth
 * of a second on the cities); every search answers such a query with an empty list at once, without a
 * statement (docs/api.md, Search).
 */
export const isSearchable = (query: string): boolean => /[\p{L}\p{N}]/u.test(query);
