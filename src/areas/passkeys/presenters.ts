import { Type } from 'typebox';
import { Nullable, ResourceSchema, resource, StringEnum, Timestamp } from '../../platform/http/jsonapi.ts';
import { formatNullableTimestamp, formatTimestamp } from '../../platform/http/time.ts';
import type { PasskeyRow } from './tables.ts';

export const PasskeySchema = ResourceSchema(
  'passkeys',
  Type.Object({
    name: Type.String({ description: 'the name its owner gave it (1 to 64 characters)' }),
    createdAt: Timestamp,
    lastUsedAt: Nullable(Timestamp),
    deviceType: StringEnum(['singleDevice', 'multiDevice'] as const, {
      description: '`multiDevice`: the credential may be synced between devices (backup eligible)',
    }),
    backedUp: Type.Boolean({ description: 'whether the authenticator says it is backed up (synced)' }),
    transports: Type.Array(Type.String(), {
      description: 'how the browser reaches it: internal, hybrid, usb, nfc, ble',
    }),
  }),
  undefined,
  'Passkey',
);

export function presentPasskey(row: PasskeyRow) {
  return resource('passkeys', row.id, {
    name: row.name,
    createdAt: formatTimestamp(row.createdAt),
    lastUsedAt: formatNullableTimestamp(row.lastUsedAt),
    deviceType: row.deviceType,
    backedUp: row.backedUp,
    transports: row.transports,
  });
}

/** The export's rows: what the list shows (never the key nor the credential id), keyed by the passkey's id. */
export const exportPasskey = (row: PasskeyRow) => ({ id: row.id, ...presentPasskey(row).attributes });

const CredentialDescriptor = Type.Object({
  id: Type.String(),
  type: Type.Literal('public-key'),
  transports: Type.Optional(Type.Array(Type.String())),
});

/** What navigator.credentials.create() takes as `publicKey` (PublicKeyCredentialCreationOptionsJSON). */
const CreationOptionsSchema = Type.Object({
  challenge: Type.String(),
  rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String()) }),
  user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
  pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') })),
  timeout: Type.Optional(Type.Integer()),
  excludeCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
  authenticatorSelection: Type.Optional(
    Type.Object({
      authenticatorAttachment: Type.Optional(Type.String()),
      requireResidentKey: Type.Optional(Type.Boolean()),
      residentKey: Type.Optional(Type.String()),
      userVerification: Type.Optional(Type.String()),
    }),
  ),
  hints: Type.Optional(Type.Array(Type.String())),
  attestation: Type.Optional(Type.String()),
  extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) })),
});

/** What navigator.credentials.get() takes as `publicKey` (PublicKeyCredentialRequestOptionsJSON). */
const RequestOptionsSchema = Type.Object({
  challenge: Type.String(),
  timeout: Type.Optional(Type.Integer()),
  rpId: Type.Optional(Type.String()),
  allowCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
  userVerification: Type.Optional(Type.String()),
  hints: Type.Optional(Type.Array(Type.String())),
});

const challengeAttributes = {
  expiresAt: Type.String({
    format: 'date-time',
    description: 'the challenge is single use and expires then (5 minutes)',
  }),
};

export const RegistrationOptionsSchema = ResourceSchema(
  'passkeyChallenges',
  Type.Object({ ...challengeAttributes, publicKey: CreationOptionsSchema }),
  undefined,
  'PasskeyRegistrationOptions',
);

export const SignInOptionsSchema = ResourceSchema(
  'passkeyChallenges',
  Type.Object({ ...challengeAttributes, publicKey: RequestOptionsSchema }),
  undefined,
  'PasskeySignInOptions',
);

export interface IssuedOptions<Options> {
  challenge: string;
  expiresAt: Date;
  publicKey: Options;
}

export function presentOptions<Options>(issued: IssuedOptions<Options>) {
  return resource('passkeyChallenges', issued.challenge, {
    expiresAt: formatTimestamp(issued.expiresAt),
    publicKey: issued.publicKey,
  });
}
