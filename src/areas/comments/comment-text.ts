/** A comment's text: its limits, and the @mentions and #hashtags read from it. */

import { AppError } from '../../platform/http/error-catalogue.ts';
import { extractHashtags } from '../../platform/text/hashtags.ts';
import { visibleText } from '../../platform/text/visible-text.ts';

/** Characters (as the user sees them) of a comment once trimmed. */
export const commentMaxLength = 2000;
/** What the JSON body may hold before trimming; longer is refused by validation alone. */
export const commentBodySchemaMax = 4000;
/** Mentions resolved per comment; more @names are left as plain text. */
export const maxMentions = 20;

/**
 * The body as stored: NFC, controls and bidi controls removed (line breaks kept), trimmed, 1 to 2000
 * characters with something visible, else 422 on /body.
 */
export function checkedBody(value: string): string {
  const trimmed = visibleText(value, { multiline: true });
  if (trimmed === null)
    throw new AppError('validationFailed', { source: { pointer: '/body' }, detail: 'must hold visible text' });
  if ([...trimmed].length > commentMaxLength) {
    throw new AppError('validationFailed', {
      source: { pointer: '/body' },
      detail: `at most ${commentMaxLength} characters`,
    });
  }
  return trimmed;
}

const usernameChars = '[A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)*';
/**
 * `@name` not inside a word or an e-mail address, nor the first half of a handle of another server
 * (`@name@host`, as comments from the fediverse write remote mentions), which names nobody here.
 */
const mentionPattern = new RegExp(`(?<![\\p{L}\\p{N}_.@])@(${usernameChars})(?![A-Za-z0-9_.]*@)`, 'gu');

/** The distinct @usernames of a text (lower-cased, in order of appearance, at most maxMentions). */
export function extractMentions(text: string): string[] {
  const names = new Set<string>();
  for (const [, mentioned = ''] of text.matchAll(mentionPattern)) {
    const name = mentioned.toLowerCase();
    if (name.length < 3 || name.length > 30) continue;
    names.add(name);
    if (names.size === maxMentions) break;
  }
  return [...names];
}

export const hashtagsOf = (text: string): string[] => extractHashtags(text);
