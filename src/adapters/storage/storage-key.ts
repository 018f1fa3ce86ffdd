/**
 * Storage keys are relative, slash-separated paths chosen by the application, such as
 * `originals/ab/cd/<hex>.jpg`. Anything that could escape the storage root, or behave differently on a
 * file system than in a bucket, is refused before it reaches either.
 */
export class InvalidStorageKeyError extends Error {
  readonly key: string;

  constructor(key: string, reason: string) {
    super(`invalid storage key ${JSON.stringify(key)}: ${reason}`);
    this.key = key;
    this.name = 'InvalidStorageKeyError';
  }
}

// Segments starting with a dot are refused too: that rules out `.` and `..` and keeps names such as
// LocalStorage's temporary files (`.<name>.<random>.tmp`) out of the key space.
const safeSegment = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const maxKeyLength = 1024; // S3's own limit, in bytes; our keys are ASCII.

/** True when `name` may be one segment of a key (LocalStorage's listing skips files that may not). */
export function isValidKeySegment(name: string): boolean {
  return safeSegment.test(name);
}

/** Throws InvalidStorageKeyError unless `key` names an object safely inside the storage root. */
export function assertValidStorageKey(key: string): void {
  checkPath(key, false);
}

/**
 * A listing prefix follows the same rules, except that it may be empty (everything) and may end with
 * a slash (`originals/`) or part of a segment (`originals/a`).
 */
export function assertValidStoragePrefix(prefix: string): void {
  if (prefix === '') return;
  checkPath(prefix, true);
}

function checkPath(path: string, isPrefix: boolean): void {
  const refuse = (reason: string): never => {
    throw new InvalidStorageKeyError(path, reason);
  };
  if (typeof path !== 'string' || path === '') refuse('it is empty');
  if (path.length > maxKeyLength) refuse(`it is longer than ${maxKeyLength} characters`);
  if (path.includes('\\')) refuse('backslashes are not allowed');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) refuse('it must be relative, not absolute');
  const segments = path.split('/');
  segments.forEach((segment, index) => {
    const isOpenEnd = isPrefix && index === segments.length - 1;
    if (segment === '..' || segment === '.') refuse('"." and ".." segments are not allowed');
    if (segment === '' && !isOpenEnd) refuse('empty path segments are not allowed');
    if (segment === '' && isOpenEnd) return;
    if (segment.startsWith('.')) refuse('a path segment may not start with a dot');
    if (!safeSegment.test(segment)) refuse('only letters, digits, ".", "_" and "-" are allowed in a segment');
  });
}
