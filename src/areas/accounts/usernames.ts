/** Username and nickname rules, shared by registration and the account routes. */

import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import { visibleText } from '../../platform/text/visible-text.ts';

export const usernamePattern = '^(?=.{3,30}$)[A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)*$';

export const UsernameSchema = Type.String({
  pattern: usernamePattern,
  description: '3 to 30 letters, digits, underscores or inner dots; unique whatever the case',
});

/** Nicknames are judged once trimmed (checkedNickname); the schema only bounds what is read. */
export const nicknameMaxLength = 50;
export const NicknameSchema = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: `display name, 1 to ${nicknameMaxLength} characters once trimmed`,
});

/**
 * The nickname as stored: NFC-normalized, controls and bidi controls removed, trimmed, 1 to 50
 * characters (counted as the user sees them) with at least one visible character, else 422.
 */
export function checkedNickname(value: string, pointer = '/nickname'): string {
  const visible = visibleText(value);
  if (visible === null) {
    throw new AppError('validationFailed', { source: { pointer }, detail: 'must hold at least one visible character' });
  }
  if ([...visible].length > nicknameMaxLength) {
    throw new AppError('validationFailed', { source: { pointer }, detail: `at most ${nicknameMaxLength} characters` });
  }
  return visible;
}

/** Names that would be confusing as @handles or collide with routes. */
const reserved = new Set([
  'admin',
  'administrator',
  'api',
  'me',
  'root',
  'support',
  'system',
  'moderator',
  'help',
  'login',
  'logout',
  'explorer',
  'travel',
]);

export const isReservedUsername = (username: string) => reserved.has(username.toLowerCase());
