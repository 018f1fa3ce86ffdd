/**
 * A local actor's key pairs, made on first use: RSA (2048 bits, RSASSA-PKCS1-v1_5 with SHA-256, what
 * Mastodon and Pixelfed verify HTTP Signatures with) and Ed25519 (Object Integrity Proofs). The
 * private halves are kept sealed (FederationSecrets) and only opened in memory to sign.
 */
import type { Clock } from '../../platform/clock.ts';
import type { ActorKeysRepository } from './actor-keys.repository.ts';
import type { FederationSecrets } from './federation-secrets.ts';
import type { ActorKeyAlgorithm, ActorKeyRow } from './tables.ts';

export interface ActorKeysServiceDeps {
  repository: ActorKeysRepository;
  secrets: FederationSecrets;
  clock: Clock;
}

const algorithms: readonly ActorKeyAlgorithm[] = ['RSASSA-PKCS1-v1_5', 'Ed25519'];

const generateParameters = {
  'RSASSA-PKCS1-v1_5': {
    name: 'RSASSA-PKCS1-v1_5',
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: 'SHA-256',
  },
  Ed25519: { name: 'Ed25519' },
} as const;

const importParameters = {
  'RSASSA-PKCS1-v1_5': { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  Ed25519: { name: 'Ed25519' },
} as const;

export class ActorKeysService {
  readonly #deps: ActorKeysServiceDeps;

  constructor(deps: ActorKeysServiceDeps) {
    this.#deps = deps;
  }

  /** The user's key pairs, RSA first (Fedify signs HTTP requests with the first RSA key). */
  async keyPairsOf(userId: string): Promise<CryptoKeyPair[]> {
    const { repository } = this.#deps;
    let rows = await repository.ofUser(userId);
    const missing = algorithms.filter((algorithm) => !rows.some((row) => row.algorithm === algorithm));
    if (missing.length > 0) {
      await repository.insertMissing(await Promise.all(missing.map((algorithm) => this.#generate(userId, algorithm))));
      rows = await repository.ofUser(userId);
    }
    const ordered = algorithms.flatMap((algorithm) => rows.filter((row) => row.algorithm === algorithm));
    return Promise.all(ordered.map((row) => this.#open(row)));
  }

  async #generate(userId: string, algorithm: ActorKeyAlgorithm): Promise<ActorKeyRow> {
    const pair = (await crypto.subtle.generateKey(generateParameters[algorithm], true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const [publicJwk, privateJwk] = await Promise.all([
      crypto.subtle.exportKey('jwk', pair.publicKey),
      crypto.subtle.exportKey('jwk', pair.privateKey),
    ]);
    return {
      userId,
      algorithm,
      publicJwk,
      sealedPrivateJwk: this.#deps.secrets.seal('actor-private-keys', JSON.stringify(privateJwk)),
      createdAt: this.#deps.clock.now(),
    };
  }

  async #open(row: ActorKeyRow): Promise<CryptoKeyPair> {
    const privateJwk = JSON.parse(this.#deps.secrets.unseal('actor-private-keys', row.sealedPrivateJwk)) as JsonWebKey;
    const parameters = importParameters[row.algorithm];
    const [publicKey, privateKey] = await Promise.all([
      crypto.subtle.importKey('jwk', row.publicJwk, parameters, true, ['verify']),
      crypto.subtle.importKey('jwk', privateJwk, parameters, true, ['sign']),
    ]);
    return { publicKey, privateKey };
  }
}
