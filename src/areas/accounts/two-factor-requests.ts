/**
 * The request schemas of two-factor authentication: a code, a recovery code, the proof that takes one
 * of them, and the completion of a sign-in (POST /api/auth/two-factor, which the web's POST
 * /login/two-factor takes too).
 */
import { Type } from 'typebox';
import { AppError } from '../../platform/http/error-catalogue.ts';
import type { TwoFactorProof } from './two-factor.service.ts';

export const TotpCode = Type.String({
  pattern: '^[0-9]{6}$',
  description: 'The 6 digits the authenticator app shows now',
});
export const RecoveryCode = Type.String({
  pattern: '^[0-9A-Za-z]{5}-?[0-9A-Za-z]{5}$',
  description: 'One of the recovery codes (`xxxxx-xxxxx`; case and the dash do not matter); each works once',
});

const proofFields = { code: Type.Optional(TotpCode), recoveryCode: Type.Optional(RecoveryCode) };
const exactlyOne = 'exactly one of `code` and `recoveryCode`';

/** A current code or a recovery code (turning two-factor off, new recovery codes). */
export const TwoFactorProofBody = Type.Object(proofFields, { additionalProperties: false, description: exactlyOne });

/** The second step of a sign-in: the ticket of the 401 twoFactorRequired, and a code. */
export const TwoFactorCompletionBody = Type.Object(
  {
    ticket: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: '`meta.ticket` of the 401 `twoFactorRequired` a sign-in answered',
    }),
    ...proofFields,
  },
  { additionalProperties: false, description: `the ticket, and ${exactlyOne}` },
);

/** The one proof a body gives; both or neither is one 422. */
export function twoFactorProofOf(body: { code?: string; recoveryCode?: string }): TwoFactorProof {
  if (body.code !== undefined && body.recoveryCode === undefined) return { code: body.code };
  if (body.recoveryCode !== undefined && body.code === undefined) return { recoveryCode: body.recoveryCode };
  throw new AppError('validationFailed', {
    source: { pointer: body.code === undefined ? '/code' : '/recoveryCode' },
    detail: `give ${exactlyOne}`,
  });
}
