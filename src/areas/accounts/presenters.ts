import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, StringEnum, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import { toHex } from '../../platform/ids/ids.ts';
import type { BirthCity } from './accounts.repository.ts';
import type { PublicUserRow } from './read-model.ts';
import type { SessionRow, UserRow } from './tables.ts';
import { secondFactors, signInMethods } from './tables.ts';
import { publicUsernameOf } from './users.service.ts';

const publicUserAttributes = {
  hex: Type.String({ description: '32 hex digits, the id without dashes' }),
  username: Nullable(
    Type.String({ description: 'for a fediverse account of another server, its handle `name@server`' }),
  ),
  nickname: Nullable(Type.String()),
  level: Type.Integer(),
  experience: Type.Integer(),
  verified: Type.Boolean(),
  avatarUrl: Nullable(Type.String({ description: 'the avatar, 320 px WebP; change size= for another variant' })),
  coverUrl: Nullable(Type.String({ description: 'the cover, 2048 px WebP; change size= for another variant' })),
  createdAt: Timestamp,
};

/** A user as anyone may see them. */
export const PublicUserSchema = ResourceSchema('users', Type.Object(publicUserAttributes), undefined, 'PublicUser');

/** The caller's own user: adds what only they (and operators) see. */
export const OwnUserSchema = ResourceSchema(
  'users',
  Type.Object({
    ...publicUserAttributes,
    email: Type.String(),
    emailConfirmed: Type.Boolean(),
    sponsorCode: Type.String(),
    usernameChangedAt: Nullable(Timestamp),
    birthCityId: Nullable(Type.String({ format: 'uuid', description: 'my birth city (settings), or null' })),
    birthCity: Type.Optional(
      Nullable(
        Type.Object(
          { id: Type.String({ format: 'uuid' }), name: Type.String(), countryCode: Type.String() },
          { description: 'GET /api/auth/me only: my birth city with its name and ISO alpha-2 country' },
        ),
      ),
    ),
  }),
  undefined,
  'OwnUser',
);

export function presentPublicUser(user: PublicUserRow) {
  return resource('users', user.id, {
    hex: toHex(user.id),
    username: publicUsernameOf(user),
    nickname: user.nickname,
    level: user.level,
    experience: user.experience,
    verified: user.verifiedAt !== null,
    avatarUrl: user.avatarMediaId === null ? null : `/media/${toHex(user.avatarMediaId)}.webp?size=thumb`,
    coverUrl: user.coverMediaId === null ? null : `/media/${toHex(user.coverMediaId)}.webp?size=large`,
    createdAt: formatTimestamp(user.createdAt),
  });
}

/** `birthCity` (the city's name and country) is given by GET /api/auth/me; other answers carry only the id. */
export function presentOwnUser(user: UserRow, birthCity?: BirthCity | null) {
  const own = presentPublicUser(user);
  // The owner's fields after the public ones, set on the attributes just made rather than copying them
  // (GET /api/auth/me is among the most read answers).
  const attributes: typeof own.attributes & Partial<OwnUserFields> = own.attributes;
  attributes.email = user.email;
  attributes.emailConfirmed = user.emailConfirmedAt !== null;
  attributes.sponsorCode = user.sponsorCode;
  attributes.usernameChangedAt = formatNullableTimestamp(user.usernameChangedAt);
  attributes.birthCityId = user.settings.birthCityId ?? null;
  if (birthCity !== undefined) attributes.birthCity = birthCity;
  return own as typeof own & { attributes: typeof own.attributes & OwnUserFields };
}

interface OwnUserFields {
  email: string;
  emailConfirmed: boolean;
  sponsorCode: string;
  usernameChangedAt: string | null;
  birthCityId: string | null;
  birthCity?: BirthCity | null;
}

/** The login/registration answer: the new session with its token, the user included. */
export const NewSessionDocumentSchema = Type.Object({
  data: ResourceSchema(
    'sessions',
    Type.Object({ accessToken: Type.String(), tokenType: Type.Literal('Bearer'), expiresAt: Timestamp }),
    Type.Object({ user: Type.Object({ data: Type.Object({ type: Type.Literal('users'), id: Type.String() }) }) }),
    'NewSession',
  ),
  included: Type.Array(OwnUserSchema),
});

export function presentNewSession(session: SessionRow, accessToken: string, user: UserRow) {
  return {
    data: {
      type: 'sessions',
      id: session.id,
      attributes: { accessToken, tokenType: 'Bearer' as const, expiresAt: formatTimestamp(session.expiresAt) },
      relationships: { user: { data: { type: 'users' as const, id: user.id } } },
    },
    included: [presentOwnUser(user)],
  };
}

export const SessionSchema = ResourceSchema(
  'sessions',
  Type.Object({
    current: Type.Boolean({ description: 'true for the session of the token making this request' }),
    createdAt: Timestamp,
    lastSeenAt: Timestamp,
    expiresAt: Timestamp,
    userAgent: Nullable(Type.String()),
    ip: Nullable(Type.String()),
    signInMethod: StringEnum(signInMethods, {
      description: 'How the session was opened: a password, an identity provider, or a passkey',
    }),
    secondFactor: Nullable(
      StringEnum(secondFactors, {
        description:
          'The second factor the sign-in passed: `totp` (an authenticator code), `recovery-code`, or ' +
          '`user-verification` (a passkey that verified its user); null: none',
      }),
    ),
  }),
  undefined,
  'Session',
);

export function presentSession(session: SessionRow, currentSessionId: string) {
  return resource('sessions', session.id, {
    current: session.id === currentSessionId,
    createdAt: formatTimestamp(session.createdAt),
    lastSeenAt: formatTimestamp(session.lastSeenAt),
    expiresAt: formatTimestamp(session.expiresAt),
    userAgent: session.userAgent,
    ip: session.ip,
    signInMethod: session.signInMethod,
    secondFactor: session.secondFactor,
  });
}
