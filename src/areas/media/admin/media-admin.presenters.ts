import { Type } from 'typebox';
import { Nullable, ResourceSchema, Timestamp } from '../../../platform/http/jsonapi.ts';
import { formatNullableTimestamp } from '../../../platform/http/time.ts';
import { OwnMediaSchema, presentOwnMedia } from '../presenters.ts';
import type { MediaRow } from '../tables.ts';

/** A media as operators and the description worker see it: everything, queue state included. */
export const AdminMediaSchema = ResourceSchema(
  'media',
  Type.Object({
    ...OwnMediaSchema.properties.attributes.properties,
    claimedUntil: Nullable(Timestamp),
    describeAttempts: Type.Integer(),
    failReason: Nullable(Type.String()),
    descriptionLocale: Nullable(Type.String()),
    byteSize: Type.Integer(),
    originalFormat: Type.String(),
    contentHash: Type.String(),
    latitude: Nullable(Type.Number()),
    longitude: Nullable(Type.Number()),
  }),
  OwnMediaSchema.properties.relationships,
  'AdminMedia',
);

export function presentAdminMedia(row: MediaRow) {
  const base = presentOwnMedia(row);
  return {
    ...base,
    attributes: {
      ...base.attributes,
      claimedUntil: formatNullableTimestamp(row.claimedUntil),
      describeAttempts: row.describeAttempts,
      failReason: row.failReason,
      descriptionLocale: row.descriptionLocale,
      byteSize: row.byteSize,
      originalFormat: row.originalFormat,
      contentHash: row.contentHash,
      latitude: row.latitude,
      longitude: row.longitude,
    },
  };
}
