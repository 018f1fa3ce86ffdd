/** Reads PostgreSQL error details through Drizzle's wrapper, on both engines. */
interface PgErrorLike {
  code?: string;
  constraint?: string;
  cause?: unknown;
}

function pgError(error: unknown): PgErrorLike | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as PgErrorLike;
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate;
    current = candidate.cause;
  }
  return null;
}

/** The violated unique constraint's name (e.g. 'users_email_key'), or null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  const found = pgError(error);
  return found?.code === '23505' ? (found.constraint ?? '') : null;
}

/** PostgreSQL refused a text value it cannot store (a NUL character, or bytes that are not UTF-8). */
export function isUnstorableText(error: unknown): boolean {
  const code = pgError(error)?.code;
  return code === '22021' || code === '22P05';
}

export function isForeignKeyViolation(error: unknown): boolean {
  return pgError(error)?.code === '23503';
}
