/** All SQL of accounts: users, sessions, single-use tokens. */
import { and, desc, eq, getTableColumns, getTableName, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { columnsOfAlias } from '../../platform/db/column-names.ts';
import type { DbSource } from '../../platform/db/database.ts';
import { newestFirst } from '../../platform/db/keyset.ts';
import { keyset } from '../../platform/db/keyset-sql.ts';
import type { PageRequest } from '../../platform/db/page-request.ts';
import { PreparedRead } from '../../platform/db/prepared-reads.ts';
import { Repository } from '../../platform/db/repository.ts';
import { returned } from '../../platform/db/returned.ts';
import { runStatement, statement } from '../../platform/db/statements.ts';
import { cityRows } from '../geography/read-model.ts';
import type { CachedSession } from './session-cache.ts';
import {
  type SessionRow,
  sessions,
  type TokenPurpose,
  type UserRow,
  type UserSettings,
  users,
  userTokens,
} from './tables.ts';

export type NewUser = typeof users.$inferInsert;

/** The signed-in user with their birth city (name and country from geography's read model). */
export interface UserWithBirthCity {
  user: UserRow;
  birthCity: BirthCity | null;
}
export interface BirthCity {
  id: string;
  name: string;
  countryCode: string;
}

/** My live sessions, newest first. */
export const sessionsKeyset = newestFirst<SessionRow>('sessions', sessions);

/** A session as a request needs it, in one statement on the (session, user) pair; an erased account has none. */
const [s, u] = [columnsOfAlias('s'), columnsOfAlias('u')];
const liveSession = statement<CachedSession>(
  'accounts.liveSession',
  `SELECT ${s(sessions.userId)} AS "userId", ${s(sessions.id)} AS "sessionId", ${u(users.bannedAt)} IS NOT NULL AS banned,
          ${s(sessions.lastSeenAt)} AS "lastSeenAt", ${s(sessions.expiresAt)} AS "expiresAt"
   FROM ${getTableName(sessions)} AS s JOIN ${getTableName(users)} AS u ON ${u(users.id)} = ${s(sessions.userId)}
   WHERE ${s(sessions.tokenHash)} = $1 AND ${s(sessions.expiresAt)} > $2 AND ${u(users.anonymizedAt)} IS NULL`,
);

/** Told of every write that changes what a session token resolves to (see session-cache.ts). */
export interface SessionRevocations {
  revokeUser(userId: string): Promise<void>;
}

export class AccountsRepository extends Repository {
  private readonly revocations: SessionRevocations;

  // Read on most authenticated screens (my profile, a user's page): prepared once.
  readonly #userById = new PreparedRead<UserRow>(this.source, 'accounts.userById', (db) =>
    db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id'))),
  );

  // GET /api/auth/me: the user and their birth city in one statement.
  readonly #userWithBirthCity = new PreparedRead<UserWithBirthCity>(this.source, 'accounts.userWithBirthCity', (db) =>
    db
      .select({ user: users, birthCity: { id: cityRows.id, name: cityRows.name, countryCode: cityRows.countryCode } })
      .from(users)
      .leftJoin(cityRows, sql`${cityRows.id} = (${users.settings} ->> 'birthCityId')::uuid`)
      .where(eq(users.id, sql.placeholder('id'))),
  );

  constructor(source: DbSource, revocations: SessionRevocations) {
    super(source);
    this.revocations = revocations;
  }

  async insertUser(user: NewUser): Promise<UserRow> {
    const [row] = await this.db.insert(users).values(user).returning();
    return returned(row, 'users.insert');
  }

  async findUserWithBirthCity(id: string): Promise<UserWithBirthCity | null> {
    const [row] = await this.#userWithBirthCity.run({ id });
    return row ?? null;
  }

  async findUserById(id: string): Promise<UserRow | null> {
    const [row] = await this.#userById.run({ id });
    return row ?? null;
  }

  /**
   * Locks the user's row until the end of the transaction (FOR NO KEY UPDATE, the one strength every
   * area uses: it queues writers of one user's data without blocking inserts that reference the row).
   */
  async lockUser(id: string): Promise<UserRow | null> {
    this.noteRowLock('user', id);
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).for('no key update');
    return row ?? null;
  }

  async findUserByEmail(email: string): Promise<UserRow | null> {
    // A remote actor's shadow has a placeholder address: never found by it (sign-in, mail, providers).
    const [row] = await this.db
      .select()
      .from(users)
      .where(sql`${users.email} = ${email}::citext AND ${users.remoteHandle} IS NULL`);
    return row ?? null;
  }

  async findUserByUsername(username: string): Promise<UserRow | null> {
    const [row] = await this.replicaDb.select().from(users).where(sql`${users.username} = ${username}::citext`);
    return row ?? null;
  }

  async findUserBySponsorCode(code: string): Promise<UserRow | null> {
    const [row] = await this.db.select().from(users).where(eq(users.sponsorCode, code.toUpperCase()));
    return row ?? null;
  }

  /** Changes a user's row; a ban or an erasure also ends what their cached sessions allow. */
  async updateUser(id: string, patch: Partial<NewUser>): Promise<UserRow | null> {
    const [row] = await this.db.update(users).set(patch).where(eq(users.id, id)).returning();
    if (row !== undefined && ('bannedAt' in patch || 'anonymizedAt' in patch)) await this.revocations.revokeUser(id);
    return row ?? null;
  }

  /** The first username, in one conditional write: null unless the account had none (parallel choices let one through). */
  async setFirstUsername(id: string, username: string, at: Date): Promise<UserRow | null> {
    const [row] = await this.db
      .update(users)
      .set({ username, updatedAt: at })
      .where(and(eq(users.id, id), isNull(users.username)))
      .returning();
    return row ?? null;
  }

  /**
   * A username change, in one conditional write: null unless the account has a username that was
   * never changed or last changed at or before `changedBy` (parallel changes let one through).
   */
  async changeUsername(id: string, username: string, at: Date, changedBy: Date): Promise<UserRow | null> {
    const [row] = await this.db
      .update(users)
      .set({ username, usernameChangedAt: at, updatedAt: at })
      .where(
        and(
          eq(users.id, id),
          sql`${users.username} IS NOT NULL`,
          sql`(${users.usernameChangedAt} IS NULL OR ${users.usernameChangedAt} <= ${changedBy.toISOString()}::timestamptz)`,
        ),
      )
      .returning();
    return row ?? null;
  }

  /** Overlays the given settings on the stored ones in one statement. */
  async mergeSettings(id: string, patch: Partial<UserSettings>, updatedAt: Date): Promise<UserRow | null> {
    const [row] = await this.db
      .update(users)
      .set({ settings: sql`${users.settings} || ${JSON.stringify(patch)}::jsonb`, updatedAt })
      .where(eq(users.id, id))
      .returning();
    return row ?? null;
  }

  // ---- sessions ----

  async insertSession(session: SessionRow): Promise<void> {
    await this.db.insert(sessions).values(session);
  }

  async findLiveSession(tokenHash: string, now: Date): Promise<CachedSession | null> {
    const [row] = await runStatement(this.db, liveSession, [tokenHash, now.toISOString()]);
    return row ?? null;
  }

  /** Which of these sessions are still live (not ended, not expired, their user neither banned nor erased). */
  async liveSessionIds(ids: string[], now: Date): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ id: sessions.id })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(inArray(sessions.id, ids), gt(sessions.expiresAt, now), isNull(users.bannedAt), isNull(users.anonymizedAt)),
      );
    return rows.map((row) => row.id);
  }

  async touchSession(id: string, lastSeenAt: Date, expiresAt: Date, ip: string, userAgent: string | null) {
    await this.db.update(sessions).set({ lastSeenAt, expiresAt, ip, userAgent }).where(eq(sessions.id, id));
  }

  async listSessions(userId: string, now: Date, page: PageRequest): Promise<SessionRow[]> {
    const { where, orderBy } = keyset(sessionsKeyset, page);
    return this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now), where))
      .orderBy(...orderBy)
      .limit(page.limit + 1);
  }

  async deleteSession(userId: string, id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.id, id)))
      .returning({ id: sessions.id });
    if (deleted.length > 0) await this.revocations.revokeUser(userId);
    return deleted.length > 0;
  }

  /** Ends every session of a user, but the one given (if any); returns how many ended. */
  async deleteSessionsOfUser(userId: string, exceptSessionId: string | null = null): Promise<number> {
    const deleted = await this.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined))
      .returning({ id: sessions.id });
    if (deleted.length > 0) await this.revocations.revokeUser(userId);
    return deleted.length;
  }

  // ---- single-use tokens ----

  async insertToken(token: typeof userTokens.$inferInsert): Promise<void> {
    await this.db.insert(userTokens).values(token);
  }

  async findToken(tokenHash: string, purpose: TokenPurpose) {
    const [row] = await this.db
      .select()
      .from(userTokens)
      .where(and(eq(userTokens.tokenHash, tokenHash), eq(userTokens.purpose, purpose)));
    return row ?? null;
  }

  /** Marks a token used; false when it was used meanwhile (so two requests cannot both use it). */
  async useToken(id: string, at: Date): Promise<boolean> {
    const used = await this.db
      .update(userTokens)
      .set({ usedAt: at })
      .where(and(eq(userTokens.id, id), isNull(userTokens.usedAt)))
      .returning({ id: userTokens.id });
    return used.length > 0;
  }

  /** Spends every open token of a purpose: every reset link once one did its work (or the password changed). */
  async useAllTokens(userId: string, purpose: TokenPurpose, at: Date): Promise<void> {
    await this.db
      .update(userTokens)
      .set({ usedAt: at })
      .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
  }

  /** How many tokens of a purpose were issued to the user since `since` (mails sent). */
  async countTokensSince(userId: string, purpose: TokenPurpose, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(userTokens)
      .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), gt(userTokens.createdAt, since)));
    return row?.count ?? 0;
  }

  async latestToken(userId: string, purpose: TokenPurpose) {
    const [row] = await this.db
      .select()
      .from(userTokens)
      .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose)))
      .orderBy(desc(userTokens.createdAt))
      .limit(1);
    return row ?? null;
  }

  /** The data export's profile (data-export): the user's row, settings and address, without the password hash. */
  async exportProfile(userId: string) {
    const { passwordHash: _secret, ...columns } = getTableColumns(users);
    const [row] = await this.db.select(columns).from(users).where(eq(users.id, userId));
    return row ?? null;
  }

  /** The data export's sessions, in keyset batches by id, without their token hashes. */
  async exportSessions(userId: string, after: string | null, limit: number) {
    const { tokenHash: _secret, ...columns } = getTableColumns(sessions);
    return this.db
      .select(columns)
      .from(sessions)
      .where(and(eq(sessions.userId, userId), after === null ? undefined : gt(sessions.id, after)))
      .orderBy(sessions.id)
      .limit(limit);
  }
}
