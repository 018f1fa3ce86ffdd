/**
 * Message catalogs (ICU MessageFormat) and Accept-Language negotiation.
 * Catalogs are flat JSON files `<locale>.json`: the platform's in src/platform/i18n/messages and each
 * area's in src/areas/<area>/messages (and in a sub-folder's own messages, src/areas/<area>/<part>/messages,
 * e.g. the web area's sign-in); they are merged at load, so areas own their strings.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { type CompiledMessage, compileMessage } from './compiled-message.ts';

export const supportedLocales = ['en-US', 'fr-FR'] as const;
export type Locale = (typeof supportedLocales)[number];
export const defaultLocale: Locale = 'en-US';

export const localeNames: Record<Locale, { name: string; nativeName: string }> = {
  'en-US': { name: 'English (United States)', nativeName: 'English (United States)' },
  'fr-FR': { name: 'French (France)', nativeName: 'Français (France)' },
};

const srcDir = fileURLToPath(new URL('../../', import.meta.url));

function catalogDirs(): string[] {
  const areasDir = join(srcDir, 'areas');
  const areas = existsSync(areasDir) ? readdirSync(areasDir).map((area) => join(areasDir, area)) : [];
  const parts = (area: string) =>
    existsSync(area) && statSync(area).isDirectory()
      ? readdirSync(area).map((part) => join(area, part, 'messages'))
      : [];
  const areaDirs = areas.flatMap((area) => [join(area, 'messages'), ...parts(area)]);
  return [join(srcDir, 'platform/i18n/messages'), ...areaDirs].filter((dir) => existsSync(dir));
}

function loadCatalogs(): Record<Locale, Map<string, string>> {
  const catalogs = Object.fromEntries(supportedLocales.map((locale) => [locale, new Map<string, string>()])) as Record<
    Locale,
    Map<string, string>
  >;
  for (const dir of catalogDirs()) {
    for (const locale of supportedLocales) {
      const file = join(dir, `${locale}.json`);
      if (!existsSync(file)) continue;
      const entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      for (const [key, message] of Object.entries(entries)) {
        if (catalogs[locale].has(key)) throw new Error(`message ${key} is defined twice for ${locale} (${file})`);
        catalogs[locale].set(key, message);
      }
    }
  }
  return catalogs;
}

export const catalogs = loadCatalogs();

const localeKey = (locales: string | string[] | undefined) =>
  Array.isArray(locales) ? locales.join(',') : (locales ?? '');

/** The value kept under `key`, made by `create` the first time (the formatters' caches, here and locale-formats.ts). */
export function getOrCreate<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  create: () => V,
): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const created = create();
  map.set(key, created);
  return created;
}

/** One formatter per locale and options object (the compiled messages keep their options objects). */
function byIdentity<F>(create: (locales?: string | string[], options?: object) => F) {
  const withoutOptions = new Map<string, F>();
  const withOptions = new Map<string, WeakMap<object, F>>();
  return (locales?: string | string[], options?: object): F => {
    const key = localeKey(locales);
    if (options === undefined) return getOrCreate(withoutOptions, key, () => create(locales));
    const cache = getOrCreate(withOptions, key, () => new WeakMap<object, F>());
    return getOrCreate(cache, options, () => create(locales, options));
  };
}

/**
 * Intl formatters for every compiled message. intl-messageformat's own cache keys each lookup by
 * JSON-serializing its arguments, which took about a fifth of a notification page's time; these are
 * found by locale and options object, and plural rules by locale and type.
 */
const pluralRules = new Map<string, Intl.PluralRules>();
const formatters = {
  getNumberFormat: byIdentity((locales, options) => new Intl.NumberFormat(locales, options)),
  getDateTimeFormat: byIdentity((locales, options) => new Intl.DateTimeFormat(locales, options)),
  getPluralRules: (locales?: string | string[], options?: Intl.PluralRulesOptions) =>
    getOrCreate(
      pluralRules,
      `${localeKey(locales)}|${options?.type ?? 'cardinal'}`,
      () => new Intl.PluralRules(locales, options),
    ),
};

/** The locale's number formatter the compiled messages use (one per locale, kept). */
export const numberFormat = (locale: Locale): Intl.NumberFormat => formatters.getNumberFormat(locale);

export function hasMessage(key: string, locale: Locale = defaultLocale): boolean {
  return catalogs[locale].has(key);
}

/** A catalog message ready to render: its compiled form when it has one, else intl-messageformat's. */
interface ReadyMessage {
  format: IntlMessageFormat;
  compiled: CompiledMessage | null;
}
const ready = Object.fromEntries(supportedLocales.map((locale) => [locale, new Map<string, ReadyMessage>()])) as Record<
  Locale,
  Map<string, ReadyMessage>
>;

/** The message of `key` in `locale` made ready once; undefined when no catalog has it. */
function readyMessage(locale: Locale, key: string): ReadyMessage | undefined {
  const usedLocale = catalogs[locale].has(key) ? locale : defaultLocale;
  const found = ready[usedLocale].get(key);
  if (found !== undefined) return found;
  const message = catalogs[usedLocale].get(key);
  if (message === undefined) return undefined;
  const format = new IntlMessageFormat(message, usedLocale, undefined, { formatters });
  const made = { format, compiled: compileMessage(format, formatters) };
  ready[usedLocale].set(key, made);
  return made;
}

/** Renders `key` in `locale`, falling back to the default locale; a missing key renders as itself. */
export function translate(locale: Locale, key: string, values?: Record<string, unknown>): string {
  const message = readyMessage(locale, key);
  if (message === undefined) return key;
  return message.compiled?.(values) ?? String(message.format.format(values as Record<string, string>));
}

/**
 * The locale of each Accept-Language header seen lately: a client sends the same header with every
 * request, and parsing a browser's (`fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7`) makes a dozen strings and
 * arrays. Short headers only, emptied when full, so odd headers cannot fill the memory.
 */
const negotiated = new Map<string, Locale>();
const maxNegotiated = 500;
const maxRememberedHeader = 200;

/** Picks the best supported locale for an Accept-Language header (q-values, then language-only match). */
export function negotiateLocale(header: string | undefined): Locale {
  if (!header) return defaultLocale;
  let locale = negotiated.get(header);
  if (locale === undefined) {
    locale = localeOfHeader(header);
    if (header.length <= maxRememberedHeader) {
      if (negotiated.size >= maxNegotiated) negotiated.clear();
      negotiated.set(header, locale);
    }
  }
  return locale;
}

function localeOfHeader(header: string): Locale {
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((range) => range.tag !== '' && range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const range of ranges) {
    if (range.tag === '*') return defaultLocale;
    const exact = supportedLocales.find((locale) => locale.toLowerCase() === range.tag);
    if (exact) return exact;
    const language = range.tag.split('-')[0];
    const sameLanguage = supportedLocales.find((locale) => locale.toLowerCase().split('-')[0] === language);
    if (sameLanguage) return sameLanguage;
  }
  return defaultLocale;
}

/** The language code of a locale ('fr-FR' -> 'fr'), as push providers key their texts. */
export const languageOf = (locale: Locale): string => locale.split('-')[0] ?? locale;
