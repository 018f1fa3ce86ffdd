/**
 * The TOTP rules (RFC 6238 through otpauth): 20-byte secrets, 6 digits, 30-second steps, a code
 * accepted one step either side of now, and recovery codes (10 characters of a 32-letter alphabet,
 * shown as `xxxxx-xxxxx`).
 */
import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

export const totpPeriodSeconds = 30;
export const totpDigits = 6;
export const recoveryCodeCount = 10;
const issuer = 'Travel Media';

const totpOf = (base32Secret: string, label: string) =>
  new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: totpDigits,
    period: totpPeriodSeconds,
    secret: Secret.fromBase32(base32Secret),
  });

/** A new random secret, in base32 (what authenticator apps take by hand). */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://` URI an authenticator app reads (as a QR code); `label` names the account. */
export const totpUri = (base32Secret: string, label: string): string => totpOf(base32Secret, label).toString();

/** The step a time falls in. */
export const stepAt = (at: Date): number => Math.floor(at.getTime() / (totpPeriodSeconds * 1000));

/** The step whose code `code` is, within one step of `at`; null when it is none of them. */
export function matchingStep(base32Secret: string, code: string, at: Date): number | null {
  const delta = totpOf(base32Secret, 'check').validate({ token: code, timestamp: at.getTime(), window: 1 });
  return delta === null ? null : stepAt(at) + delta;
}

// Crockford's base32, lowercase: no i, l, o, u to misread.
const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

export function newRecoveryCode(): string {
  let code = '';
  for (let index = 0; index < 10; index += 1) code += alphabet[randomInt(alphabet.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The form a recovery code is hashed in: case, spaces and the dash do not matter. */
export const normalizedRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');
