/** A catalogue text in the request's locale, else in en-US (the fallback every text has). */
import type { Locale } from '../../platform/i18n/i18n.ts';
import type { LocalizedText } from './tables.ts';

export interface Localized {
  text: string | null;
  /** The locale the text is in; null when there is no text at all. */
  locale: string | null;
}

export function localized(value: LocalizedText, locale: Locale): Localized {
  const wanted = value[locale];
  if (typeof wanted === 'string') return { text: wanted, locale };
  const fallback = value['en-US'];
  if (typeof fallback === 'string') return { text: fallback, locale: 'en-US' };
  // Neither: any text there is (an import may carry only fr-FR for a description).
  const [other, text] = Object.entries(value).find(([, text]) => typeof text === 'string') ?? [];
  return typeof text === 'string' && other !== undefined ? { text, locale: other } : { text: null, locale: null };
}
