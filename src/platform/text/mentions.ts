/**
 * A username in texts users write (comments, report details): an erased account's former name is
 * rewritten wherever it was written, so no table keeps it.
 */
const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The name (any case) as a whole word, optionally after `@`; never a part of a longer name. */
const nameIn = (former: string, requireAt: boolean) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}_.@])(@${requireAt ? '' : '?'})${escapeRegExp(former)}(?![A-Za-z0-9_]|\\.[A-Za-z0-9_])`,
    'giu',
  );

/** Rewrites `@former` (whatever its case) as `@current`, leaving longer names that start alike. */
export function renameMention(text: string, former: string, current: string): string {
  return text.replace(nameIn(former, true), `$1${current}`);
}

/** Rewrites the former name as `current` wherever it stands as a word, with or without `@`. */
export function renameName(text: string, former: string, current: string): string {
  return text.replace(nameIn(former, false), `$1${current}`);
}

/**
 * What an account erased at its owner's request (account deletion) is called where others wrote its
 * name: usernames cannot hold a hyphen, so this names nobody, now or later.
 */
export const erasedAccountName = 'deleted-user';
