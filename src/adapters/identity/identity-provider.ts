/**
 * Identity providers (Google, Apple, Facebook) behind one small interface: given what the provider's
 * SDK handed the client, answer who the person is, or say why not. The identities area maps the two
 * failures to its error codes (401 invalidProviderToken, 502 providerUnavailable).
 */
export const providerNames = ['google', 'apple', 'facebook'] as const;
export type ProviderName = (typeof providerNames)[number];

export const isProviderName = (value: string): value is ProviderName =>
  (providerNames as readonly string[]).includes(value);

/** What the client sends: an ID token (and its nonce) for Google and Apple, an access token for Facebook. */
export interface ProviderCredentials {
  idToken?: string;
  nonce?: string;
  accessToken?: string;
}

export interface VerifiedIdentity {
  provider: ProviderName;
  /** The provider's stable id of the person (`sub`, or Facebook's user id). */
  subject: string;
  email: string | null;
  /** The provider vouches that the person controls `email`. */
  emailVerified: boolean;
}

export interface IdentityProvider {
  readonly name: ProviderName;
  verify(credentials: ProviderCredentials): Promise<VerifiedIdentity>;
}

/** A provider's `email` claim as an address we can store (one `@`, no spaces, at most 254), else null. */
export const emailOf = (value: unknown): string | null =>
  typeof value === 'string' && value.length <= 254 && /^[^@\s]+@[^@\s]+$/.test(value) ? value : null;

/** The credential is not a valid one of this provider for this service; `reason` is logged, never answered. */
export class IdentityTokenRejected extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`identity token rejected: ${reason}`);
    this.reason = reason;
  }
}

/** The provider could not be asked: timeout, network error, 5xx or an unreadable answer. */
export class IdentityProviderUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
