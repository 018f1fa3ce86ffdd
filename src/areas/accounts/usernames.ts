/** Username and nickname rules, shared by registration and the account routes. */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';

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

/** The nickname as stored: trimmed, 1 to 50 characters (counted as the user sees them), else 422. */
export function checkedNickname(value: string, pointer = '/nickname'): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new AppError('validationFailed', { source: { pointer }, detail: 'must not be blank' });
  if ([...trimmed].length > nicknameMaxLength) {
    throw new AppError('validationFailed', { source: { pointer }, detail: `at most ${nicknameMaxLength} characters` });
  }
  return trimmed;
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
