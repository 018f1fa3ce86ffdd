/**
 * A software WebAuthn authenticator for the API tests: P-256 keys from node:crypto, `none`
 * attestation, the attestationObject (CBOR) and clientDataJSON built here and assertions signed here,
 * as a platform authenticator and the browser would (the real protocol, no library of the server's).
 * Every knob a test needs to play a broken or hostile client: another origin or relying party, no
 * user verification, a counter of its choosing, a tampered signature.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

type Cbor = number | string | boolean | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

/** The few CBOR shapes WebAuthn needs (RFC 8949): integers, byte and text strings, arrays, maps. */
export function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(length, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'boolean') return Buffer.from([value ? 0xf5 : 0xf4]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

const flags = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 };

export interface StoredCredential {
  id: string;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  signCount: number;
}

export interface CeremonyOptions {
  /** The origin the "browser" writes in clientDataJSON (default: the authenticator's). */
  origin?: string;
  /** The relying party whose hash the authenticator signs (default: the options' rp id). */
  rpId?: string;
  /** Whether the authenticator verified the user (default true). */
  userVerified?: boolean;
  /** Another challenge than the options' (base64url). */
  challenge?: string;
}

export class SoftwareAuthenticator {
  readonly origin: string;
  readonly credentials = new Map<string, StoredCredential>();
  /** Each assertion adds this to the credential's counter (0: an authenticator that keeps none). */
  counterStep: number;

  constructor(origin: string, options: { counterStep?: number } = {}) {
    this.origin = origin;
    this.counterStep = options.counterStep ?? 1;
  }

  /** navigator.credentials.create() with the options' `publicKey`: the RegistrationResponseJSON. */
  create(publicKey: any, options: CeremonyOptions = {}) {
    const rpId: string = options.rpId ?? publicKey.rp.id;
    const { privateKey, publicKey: pub } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = pub.export({ format: 'jwk' });
    const coseKey = new Map<Cbor, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const credentialId = randomBytes(32);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flags.up | flags.at | (options.userVerified === false ? 0 : flags.uv)]),
      u32(0),
      Buffer.alloc(16), // aaguid: none
      Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]),
      credentialId,
      cbor(coseKey),
    ]);
    const clientDataJSON = this.#clientData('webauthn.create', options.challenge ?? publicKey.challenge, options);
    const id = b64url(credentialId);
    this.credentials.set(id, { id, privateKey, rpId, userHandle: publicKey.user.id, signCount: 0 });
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() with the options' `publicKey`, by a credential of ours (the first by default). */
  get(publicKey: any, options: CeremonyOptions & { credentialId?: string; tamper?: boolean } = {}) {
    const credential =
      options.credentialId === undefined
        ? [...this.credentials.values()][0]
        : this.credentials.get(options.credentialId);
    if (credential === undefined) throw new Error('no such credential in this authenticator');
    credential.signCount += this.counterStep;
    const authData = Buffer.concat([
      sha256(options.rpId ?? publicKey.rpId ?? credential.rpId),
      Buffer.from([flags.up | (options.userVerified === false ? 0 : flags.uv)]),
      u32(credential.signCount),
    ]);
    const clientDataJSON = this.#clientData('webauthn.get', options.challenge ?? publicKey.challenge, options);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    if (options.tamper) signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0x01, signature.length - 1);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  #clientData(type: string, challenge: string, options: CeremonyOptions): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: options.origin ?? this.origin, crossOrigin: false }));
  }
}
