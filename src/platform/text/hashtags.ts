/** Hashtags: lowercase words of letters, digits and underscores, without the '#'. */
export const maxHashtags = 30;
export const maxHashtagLength = 64;
export const hashtagPattern = /^[\p{L}\p{N}_]{1,64}$/u;

/** The distinct #tags written in a text, in order of appearance, at most maxHashtags. */
export function extractHashtags(text: string): string[] {
  const found = [...text.matchAll(/#([\p{L}\p{N}_]{1,64})/gu)].map(([, tag = '']) => tag.toLowerCase());
  return normaliseHashtags(found);
}

/** Lowercased, '#' removed, duplicates dropped, at most maxHashtags. Callers validate with hashtagPattern first. */
export function normaliseHashtags(tags: string[]): string[] {
  return [...new Set(tags.map((tag) => tag.replace(/^#/, '').toLowerCase()))].slice(0, maxHashtags);
}
