/**
 * What a keyword filter may hold (docs/api.md, Keyword filters): its contexts and actions, the limits per
 * user and per filter, and the normalisation of what a user types (NFC, trimmed, something visible).
 */
import { AppError } from '../../platform/http/error-catalogue.ts';
import { visibleText } from '../../platform/text/visible-text.ts';

/** Where a filter applies: media in feeds and lists, comments, notifications. */
export const filterContexts = ['feeds', 'comments', 'notifications'] as const;
export type FilterContext = (typeof filterContexts)[number];

/** `warn`: the item stays, carrying `filtered`; `hide`: the item is left out of the list. */
export const filterActions = ['warn', 'hide'] as const;
export type FilterAction = (typeof filterActions)[number];

export const filterLimits = {
  /** The next POST is 409 filterLimitReached. */
  filtersPerUser: 100,
  keywordsPerFilter: 50,
  keywordMaxLength: 100,
  titleMaxLength: 100,
} as const;

export interface KeywordInput {
  keyword: string;
  wholeWord: boolean;
}

export interface FilterInput {
  title: string;
  contexts: FilterContext[];
  action: FilterAction;
  expiresAt: Date | null;
  keywords: KeywordInput[];
}

const invalid = (pointer: string, detail: string) => new AppError('validationFailed', { source: { pointer }, detail });

/** A title or keyword as stored: NFC, trimmed, 1 to `max` characters, something visible. */
function visible(raw: string, max: number, pointer: string): string {
  const text = visibleText(raw);
  if (text === null || text.length > max) throw invalid(pointer, `must be 1 to ${max} visible characters once trimmed`);
  return text;
}

export const normalizeTitle = (raw: string): string => visible(raw, filterLimits.titleMaxLength, '/title');

/** Keywords as stored, in their order; a keyword given twice (same text, same wholeWord) is kept once. */
export function normalizeKeywords(raw: { keyword: string; wholeWord?: boolean }[]): KeywordInput[] {
  const seen = new Set<string>();
  const keywords: KeywordInput[] = [];
  raw.forEach((entry, index) => {
    const keyword = visible(entry.keyword, filterLimits.keywordMaxLength, `/keywords/${index}/keyword`);
    const wholeWord = entry.wholeWord ?? true;
    const key = `${wholeWord}:${keyword}`;
    if (seen.has(key)) return;
    seen.add(key);
    keywords.push({ keyword, wholeWord });
  });
  return keywords;
}

/** Contexts as stored: each once, in the order of `filterContexts`. */
export const normalizeContexts = (raw: readonly FilterContext[]): FilterContext[] =>
  filterContexts.filter((context) => raw.includes(context));

/** An expiry must be in the future; null is never. */
export function normalizeExpiry(raw: string | null | undefined, now: Date): Date | null {
  if (raw === null || raw === undefined) return null;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime())) throw invalid('/expiresAt', 'must be an RFC 3339 timestamp');
  if (at.getTime() <= now.getTime()) throw invalid('/expiresAt', 'must be in the future');
  return at;
}
