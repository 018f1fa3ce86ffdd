import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp } from '../../platform/http/time.ts';
import type { Relationship } from './follows.service.ts';

export const RelationshipSchema = ResourceSchema(
  'relationships',
  Type.Object({
    following: Type.Boolean({ description: 'the caller follows this user' }),
    followedBy: Type.Boolean({ description: 'this user follows the caller' }),
    followingSince: Nullable(Timestamp),
    followedBySince: Nullable(Timestamp),
    followRequested: Type.Boolean({
      description: 'a remote account the caller asked to follow, which has not answered yet (docs/api.md, Federation)',
    }),
  }),
  undefined,
  'Relationship',
);

/** id is the other user's id. */
export function presentRelationship(relationship: Relationship) {
  return resource('relationships', relationship.userId, {
    following: relationship.following !== null,
    followedBy: relationship.followedBy !== null,
    followingSince: formatNullableTimestamp(relationship.following),
    followedBySince: formatNullableTimestamp(relationship.followedBy),
    followRequested: relationship.requested !== null,
  });
}
