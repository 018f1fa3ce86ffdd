/** Reads PostgreSQL error details through Drizzle's wrapper, on both engines. */
import { DrizzleQueryError } from 'drizzle-orm/errors';

interface PgErrorLike {
  code?: string;
  message?: string;
  constraint?: string;
  cause?: unknown;
}

type PgError = PgErrorLike & { code: string };

// A SQLSTATE: five digits or capitals, never starting with E as a system errno (EPIPE, EPERM) does.
const hasSqlState = (candidate: PgErrorLike): candidate is PgError =>
  typeof candidate.code === 'string' && /^[0-9A-DF-Z][0-9A-Z]{4}$/.test(candidate.code);

function pgError(error: unknown): PgError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as PgErrorLike;
    if (hasSqlState(candidate)) return candidate;
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

/**
 * PostgreSQL cannot be reached or ended the connection: it is restarting, failing over, refusing
 * connections, or killed this session (SQLSTATE classes 08 and 57P, too many connections), or the
 * driver could not connect, lost its socket or waited too long for a free connection. A request that
 * meets one is answered 503 with Retry-After, not 500: trying again soon is the right thing to do.
 * A socket error counts only on the database's path (a statement Drizzle ran, or a connection the pool
 * opened: markConnectFailure), never another service's (storage's ECONNREFUSED is its own failure).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = pgError(error)?.code;
  if (code !== undefined) return code.startsWith('08') || code.startsWith('57P') || code === '53300';
  let onDatabasePath = false;
  for (let current: unknown = error, depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof DrizzleQueryError || connectFailures.has(current)) onDatabasePath = true;
    if (driverConnectionMessages.some((message) => current instanceof Error && current.message.includes(message)))
      return true;
    const { code: systemCode } = current as NodeJS.ErrnoException;
    if (onDatabasePath && systemCode !== undefined && socketFailures.has(systemCode)) return true;
    current = current.cause;
  }
  return false;
}

/** Errors of the pool's attempts to connect (postgres-database.ts marks them). */
const connectFailures = new WeakSet<Error>();
export function markConnectFailure(error: unknown): void {
  if (error instanceof Error) connectFailures.add(error);
}

const socketFailures = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);
/** What node-postgres says when a connection ends, breaks, or cannot be had in time. */
const driverConnectionMessages = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

/**
 * What the server said of a failed statement: its SQLSTATE, its message and the constraint it names,
 * without the statement or its values (which Drizzle's wrapper prints); null when the server said nothing.
 */
export function databaseError(error: unknown): { code: string; message: string; constraint: string | null } | null {
  const found = pgError(error);
  if (found === null) return null;
  return { code: found.code, message: found.message ?? '', constraint: found.constraint ?? null };
}
