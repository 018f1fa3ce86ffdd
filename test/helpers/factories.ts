/** Test data made through the real services, so it passes the same rules as the API. */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AccountsRepository, type NewUser } from '../../src/areas/accounts/accounts.repository.ts';
import type { UserRow } from '../../src/areas/accounts/tables.ts';
import type { TestApp } from './app.ts';

export const strongPassword = 'correct horse 42';
/** The user agent of the session createUser opens: t.request's own. */
export const factoryUserAgent = 'lightMyRequest';

export interface TestUser {
  user: UserRow;
  id: string;
  hex: string;
  token: string;
  sessionId: string;
  email: string;
  username: string;
}

let counter = 0;

export async function createUser(
  t: TestApp,
  overrides: { email?: string; username?: string; nickname?: string; password?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const suffix = `${counter}${randomBytes(3).toString('hex')}`;
  const username = overrides.username ?? `traveller${suffix}`;
  const email = overrides.email ?? `${username}@example.test`;
  const { user, session, accessToken } = await t.services.areas.accounts.accounts.register(
    {
      email,
      password: overrides.password ?? strongPassword,
      username,
      nickname: overrides.nickname ?? `Traveller ${suffix}`,
    },
    // The device of t.request (light-my-request's user agent), so that signing in through the API
    // afterwards is not a new device (sign-in-notices.ts): no new-device mail unless a test asks for one.
    { ip: '127.0.0.1', userAgent: factoryUserAgent },
  );
  return {
    user,
    id: user.id,
    hex: user.id.replaceAll('-', ''),
    token: accessToken,
    sessionId: session.id,
    email,
    username,
  };
}

/** Inserts a user's row directly, announcing nothing: what a write behind the services' back leaves (drift to repair). */
export async function insertUserRow(t: TestApp, fields: { email: string; username: string }): Promise<UserRow> {
  const now = t.clock.now();
  return new AccountsRepository(t.services.platform.transactions, t.services.areas.accounts.sessionCache).insertUser({
    id: randomUUID(),
    ...fields,
    sponsorCode: randomBytes(5).toString('hex').toUpperCase(),
    settings: {},
    createdAt: now,
    updatedAt: now,
  });
}

/** Writes a user's row directly, for states the API cannot reach yet (bans, anonymization, raw settings). */
export async function updateUserRow(t: TestApp, userId: string, patch: Partial<NewUser>): Promise<void> {
  await new AccountsRepository(t.services.platform.transactions, t.services.areas.accounts.sessionCache).updateUser(
    userId,
    patch,
  );
}

/** `count` users with nothing but their names (a skewed seed's many light owners), as one SQL insert. */
export async function insertFillerUsers(t: TestApp, count: number): Promise<void> {
  await t.deps.database.db.execute(sql`INSERT INTO users (id, email, username, sponsor_code, settings, created_at, updated_at)
    SELECT gen_random_uuid(), n || '@example.test', 'u' || n, upper(n), '{}', now(), now()
    FROM (SELECT md5(i::text) AS n FROM generate_series(1, ${count}) AS i) AS filler`);
}
