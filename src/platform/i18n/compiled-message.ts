/**
 * ICU messages turned into plain functions once per (locale, key). intl-messageformat walks a
 * message's syntax tree on every format() and builds a list of parts to join; a page of 20
 * notifications rendered 40 messages that way, the largest part of the page's time. The elements our
 * catalogs use (text, {arg}, {n, number}, plural with #, select) become closures here that append to
 * one string, with the same formatters and the same choices as intl-messageformat's formatToParts.
 *
 * A message using anything else (dates, times, tags, number styles), and any call whose values are
 * not plain strings and numbers, is left to intl-messageformat itself (the compiled function answers
 * undefined), so the output and the errors are always intl-messageformat's. A test holds every
 * catalog message to that.
 */
import type { IntlMessageFormat } from 'intl-messageformat';
import { integerFormat } from './integer-format.ts';

type Values = Record<string, unknown>;
/** Appends an element's text; undefined when the values need intl-messageformat. */
type Piece = (values: Values, pluralValue: number | undefined) => string | undefined;
export type CompiledMessage = (values: Values | undefined) => string | undefined;

// The element kinds of @formatjs/icu-messageformat-parser's syntax tree.
const literal = 0;
const argument = 1;
const number = 2;
const select = 5;
const plural = 6;
const pound = 7;

interface Element {
  type: number;
  value?: string;
  style?: unknown;
  options?: Record<string, { value: Element[] }>;
  offset?: number;
  pluralType?: 'cardinal' | 'ordinal';
}

export interface MessageFormatters {
  getNumberFormat(locales?: string | string[], options?: object): Intl.NumberFormat;
  getPluralRules(locales?: string | string[], options?: Intl.PluralRulesOptions): Intl.PluralRules;
}

const has = (object: object, key: string) => Object.hasOwn(object, key);

/** The compiled form of a message, or null when it uses an element compiled here does not handle. */
export function compileMessage(format: IntlMessageFormat, formatters: MessageFormatters): CompiledMessage | null {
  const locale = format.resolvedOptions().locale;
  const formatNumber = integerFormat(formatters.getNumberFormat(locale));

  function compileAll(elements: Element[]): Piece | null {
    const pieces: Piece[] = [];
    for (const element of elements) {
      const piece = compileOne(element);
      if (piece === null) return null;
      pieces.push(piece);
    }
    const [only] = pieces;
    if (pieces.length === 1 && only !== undefined) return only;
    return (values, pluralValue) => {
      let text = '';
      for (const piece of pieces) {
        const part = piece(values, pluralValue);
        if (part === undefined) return undefined;
        text += part;
      }
      return text;
    };
  }

  function compileOptions(options: Record<string, { value: Element[] }>): Map<string, Piece> | null {
    const compiled = new Map<string, Piece>();
    for (const [key, option] of Object.entries(options)) {
      const piece = compileAll(option.value);
      if (piece === null) return null;
      compiled.set(key, piece);
    }
    return compiled;
  }

  function compileOne(element: Element): Piece | null {
    const name = element.value ?? '';
    switch (element.type) {
      case literal:
        return () => name;
      case pound:
        return (_values, pluralValue) => (pluralValue === undefined ? '' : formatNumber(pluralValue));
      case argument:
        return (values) => {
          const value = values[name];
          if (typeof value === 'string') return value;
          if (typeof value === 'number') return String(value);
          return undefined;
        };
      case number:
        if (element.style !== null && element.style !== undefined) return null;
        return (values) => {
          const value = values[name];
          return typeof value === 'number' ? formatNumber(value) : undefined;
        };
      case select: {
        const written = element.options ?? {};
        const options = compileOptions(written);
        if (options === null) return null;
        const other = options.get('other');
        return (values) => {
          const value = values[name];
          if (typeof value !== 'string' && typeof value !== 'number') return undefined;
          const key = String(value);
          // A select's option knows no plural value, as in intl-messageformat.
          return (has(written, key) ? options.get(key) : other)?.(values, undefined);
        };
      }
      case plural: {
        const written = element.options ?? {};
        const options = compileOptions(written);
        if (options === null) return null;
        const offset = element.offset ?? 0;
        const rules = formatters.getPluralRules(locale, { type: element.pluralType ?? 'cardinal' });
        const other = options.get('other');
        return (values) => {
          const value = values[name];
          if (typeof value !== 'number') return undefined;
          const exact = `=${value}`;
          let chosen = has(written, exact) ? options.get(exact) : undefined;
          if (chosen === undefined) {
            const rule = rules.select(value - offset);
            chosen = has(written, rule) ? options.get(rule) : other;
          }
          return chosen?.(values, value - offset);
        };
      }
      default:
        return null;
    }
  }

  const elements = format.getAst() as Element[];
  const whole = compileAll(elements);
  if (whole === null) return null;
  const names = new Set<string>();
  const collect = (list: Element[]) => {
    for (const element of list) {
      if (element.type !== literal && element.type !== pound) names.add(element.value ?? '');
      for (const option of Object.values(element.options ?? {})) collect(option.value);
    }
  };
  collect(elements);
  // A message without arguments is its text, whatever the values.
  if (names.size === 0) {
    const text = whole({}, undefined);
    return () => text;
  }
  return (values) => (values === undefined ? undefined : whole(values, undefined));
}
