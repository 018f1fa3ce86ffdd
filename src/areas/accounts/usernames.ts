/** Username and nickname rules, shared by registration and the account routes. */
import { Type } from 'typebox';

export const usernamePattern = '^(?=.{3,30}$)[A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)*$';

export const UsernameSchema = Type.String({
  pattern: usernamePattern,
  description: '3 to 30 letters, digits, underscores or inner dots; unique whatever the case',
});

export const NicknameSchema = Type.String({
  minLength: 1,
  maxLength: 50,
  description: 'display name, 1 to 50 characters',
});

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
