import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import { toHex } from '../../platform/ids/ids.ts';
import type { UserRow } from '../accounts/read-model.ts';
import type { AdminTwoFactor, UserCounts } from './user-admin.service.ts';

const adminUserAttributes = {
  hex: Type.String({ description: '32 hex digits, the id without dashes' }),
  email: Type.String({ description: 'after an erasure, a placeholder at anonymized.invalid' }),
  emailConfirmed: Type.Boolean(),
  emailConfirmedAt: Nullable(Timestamp),
  username: Nullable(Type.String()),
  nickname: Nullable(Type.String()),
  level: Type.Integer(),
  experience: Type.Integer(),
  verified: Type.Boolean(),
  verifiedAt: Nullable(Timestamp),
  banned: Type.Boolean(),
  ban: Nullable(
    Type.Object(
      {
        reason: Type.String(),
        at: Timestamp,
        until: Nullable(Timestamp),
      },
      { description: 'the ban in force: why, since when, and when it ends by itself (null: until lifted)' },
    ),
  ),
  anonymized: Type.Boolean(),
  anonymizedAt: Nullable(Timestamp),
  deletionRequestedAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/** A user as operators see them (GET /admin/users and the moderation routes). */
export const AdminUserSchema = ResourceSchema('users', Type.Object(adminUserAttributes), undefined, 'AdminUser');

/** GET /admin/users/{hex}: the same, with what the user has and what is said of them. */
export const AdminUserDetailSchema = ResourceSchema(
  'users',
  Type.Object({
    ...adminUserAttributes,
    counts: Type.Object({
      media: Type.Integer({ description: 'posts, whatever their state' }),
      followers: Type.Integer(),
      following: Type.Integer(),
      comments: Type.Integer({ description: 'comments written, deleted ones excepted' }),
      reportsOpen: Type.Integer({ description: 'reports against the user still to handle' }),
      reportsTotal: Type.Integer({ description: 'every report ever filed against the user' }),
      liveSessions: Type.Integer({ description: 'sessions not expired' }),
    }),
    twoFactor: Type.Object(
      { enabled: Type.Boolean(), enabledAt: Nullable(Timestamp) },
      { description: 'whether two-factor authentication is on, and since when (never its secret or codes)' },
    ),
  }),
  undefined,
  'AdminUserDetail',
);

export function presentAdminUser(user: UserRow) {
  return resource('users', user.id, {
    hex: toHex(user.id),
    email: user.email,
    emailConfirmed: user.emailConfirmedAt !== null,
    emailConfirmedAt: formatNullableTimestamp(user.emailConfirmedAt),
    username: user.username,
    nickname: user.nickname,
    level: user.level,
    experience: user.experience,
    verified: user.verifiedAt !== null,
    verifiedAt: formatNullableTimestamp(user.verifiedAt),
    banned: user.bannedAt !== null,
    ban:
      user.bannedAt === null
        ? null
        : {
            reason: user.banReason ?? '',
            at: formatTimestamp(user.bannedAt),
            until: formatNullableTimestamp(user.bannedUntil),
          },
    anonymized: user.anonymizedAt !== null,
    anonymizedAt: formatNullableTimestamp(user.anonymizedAt),
    deletionRequestedAt: formatNullableTimestamp(user.deletionRequestedAt),
    createdAt: formatTimestamp(user.createdAt),
    updatedAt: formatTimestamp(user.updatedAt),
  });
}

export function presentAdminUserDetail(user: UserRow, counts: UserCounts, twoFactor: AdminTwoFactor) {
  const base = presentAdminUser(user);
  return {
    ...base,
    attributes: {
      ...base.attributes,
      counts,
      twoFactor: { enabled: twoFactor.enabled, enabledAt: formatNullableTimestamp(twoFactor.enabledAt) },
    },
  };
}
