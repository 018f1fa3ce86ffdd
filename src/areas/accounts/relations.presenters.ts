/** Blocks and mutes as JSON:API resources: the id is the other user's, their public face in `user`. */
import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import { PublicUserSchema, presentPublicUser } from './presenters.ts';
import type { PublicUserRow } from './read-model.ts';

const OtherUser = Type.Object(
  { id: Type.String({ format: 'uuid' }), attributes: PublicUserSchema.properties.attributes },
  { description: 'the other user, as anyone sees them' },
);

export const BlockSchema = ResourceSchema(
  'blocks',
  Type.Object({ createdAt: Timestamp, user: Type.Optional(OtherUser) }),
  undefined,
  'Block',
);

export const MuteSchema = ResourceSchema(
  'mutes',
  Type.Object({
    createdAt: Timestamp,
    notifications: Type.Boolean({ description: 'their notifications to me stop too' }),
    expiresAt: Nullable(Timestamp),
    user: Type.Optional(OtherUser),
  }),
  undefined,
  'Mute',
);

const otherUser = (user: PublicUserRow | undefined) => {
  if (user === undefined) return {};
  const { id, attributes } = presentPublicUser(user);
  return { user: { id, attributes } };
};

export function presentBlock(block: { blockedId: string; createdAt: Date }, user?: PublicUserRow) {
  return resource('blocks', block.blockedId, { createdAt: formatTimestamp(block.createdAt), ...otherUser(user) });
}

export function presentMute(
  mute: { mutedId: string; createdAt: Date; notifications: boolean; expiresAt: Date | null },
  user?: PublicUserRow,
) {
  return resource('mutes', mute.mutedId, {
    createdAt: formatTimestamp(mute.createdAt),
    notifications: mute.notifications,
    expiresAt: formatNullableTimestamp(mute.expiresAt),
    ...otherUser(user),
  });
}
