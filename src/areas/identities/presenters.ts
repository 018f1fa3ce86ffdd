import { Type } from 'typebox';
import { providerNames } from '../../adapters/identity/index.ts';
import { Nullable, ResourceSchema, resource, StringEnum, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import type { IdentityRow } from './tables.ts';

export const IdentitySchema = ResourceSchema(
  'oauthIdentities',
  Type.Object({
    provider: StringEnum(providerNames),
    subject: Type.String({ description: "the provider's id of the person" }),
    email: Nullable(Type.String({ description: 'the address the provider gave at the last sign-in or link' })),
    linkedAt: Timestamp,
    lastSignInAt: Nullable(Timestamp),
  }),
  undefined,
  'OAuthIdentity',
);

export function presentIdentity(row: IdentityRow) {
  return resource('oauthIdentities', row.id, {
    provider: row.provider,
    subject: row.subject,
    email: row.email,
    linkedAt: formatTimestamp(row.linkedAt),
    lastSignInAt: formatNullableTimestamp(row.lastSignInAt),
  });
}

/** The export's rows: what the list shows, keyed by the identity's id. */
export const exportIdentity = (row: IdentityRow) => ({ id: row.id, ...presentIdentity(row).attributes });
