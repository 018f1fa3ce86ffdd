/**
 * Content warnings (docs/api.md, Media: content warnings): a media marked `sensitive`, with an optional
 * `contentWarning` text, stays in public lists and is shown behind its warning (the web pages blur it
 * unless the viewer's `blurSensitiveMedia` setting is off). Its author sets it at upload or later; a
 * moderator may impose one, which the author may then neither change nor lift. Not the moderators'
 * flag (media-flags.ts), which takes a media out of public lists.
 */
import { AppError } from '../../platform/http/error-catalogue.ts';
import { visibleText } from '../../platform/text/visible-text.ts';

/** The longest warning text, in characters once cleaned (migration 1620 holds the column to it). */
export const maxContentWarningLength = 200;

/** What a request asks for: sensitive or not, and the warning's text (null or absent: none). */
export interface ContentWarningRequest {
  sensitive: boolean;
  contentWarning?: string | null | undefined;
}

/** What is stored: the media's columns. */
export interface ContentWarning {
  authorSensitive: boolean;
  contentWarning: string | null;
}

export const noContentWarning: ContentWarning = { authorSensitive: false, contentWarning: null };

const refuse = (detail: string) => new AppError('validationFailed', { source: { pointer: '/contentWarning' }, detail });

/**
 * The warning to store, or 422 `validationFailed` pointing at /contentWarning: a text without
 * `sensitive: true`, a text that shows nothing, or one longer than 200 characters. The text is cleaned
 * as every text written for others (visible-text.ts: NFC, no control or bidi characters, trimmed).
 */
export function checkedContentWarning(request: ContentWarningRequest): ContentWarning {
  const text = request.contentWarning;
  if (text === undefined || text === null) return { authorSensitive: request.sensitive, contentWarning: null };
  if (!request.sensitive) throw refuse('a content warning needs "sensitive": true');
  const cleaned = visibleText(text);
  if (cleaned === null) throw refuse('must show some text (leave it out for a warning without text)');
  if ([...cleaned].length > maxContentWarningLength) {
    throw refuse(`at most ${maxContentWarningLength} characters`);
  }
  return { authorSensitive: true, contentWarning: cleaned };
}
