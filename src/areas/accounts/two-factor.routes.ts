/**
 * Two-factor authentication (docs/api.md, Two-factor authentication): the owner's enrolment, its
 * confirmation, turning it off and new recovery codes under /api/users/me/two-factor; and the second
 * step of a sign-in, POST /api/auth/two-factor, which opens the session a 401 twoFactorRequired held back.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { DocumentSchema, Nullable, resource, Timestamp } from '../../platform/http/jsonapi.ts';
import { perIp, perUser } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import { formatNullableTimestamp } from '../../platform/http/time.ts';
import { NewSessionDocumentSchema, presentNewSession } from './presenters.ts';
import type { AccountsServices } from './public.ts';
import { clientInfo } from './sessions.service.ts';
import { recoveryCodeCount } from './totp.ts';
import { TotpCode, TwoFactorCompletionBody, TwoFactorProofBody, twoFactorProofOf } from './two-factor-requests.ts';

const base = '/api/users/me/two-factor';
/** Answers that carry a secret, recovery codes or an access token are kept by no cache. */
const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');

const StatusSchema = DocumentSchema(
  Type.Object({
    type: Type.Literal('twoFactor'),
    id: Type.String({ description: 'the user id' }),
    attributes: Type.Object({
      enabled: Type.Boolean(),
      enabledAt: Nullable(Timestamp),
      recoveryCodesLeft: Type.Integer({ description: 'recovery codes not used yet (0 while off)' }),
    }),
  }),
);
const EnrolmentSchema = DocumentSchema(
  Type.Object({
    type: Type.Literal('twoFactorEnrolment'),
    id: Type.String({ description: 'the user id' }),
    attributes: Type.Object({
      secret: Type.String({ description: 'the TOTP secret in base32 (to type into an authenticator app); shown once' }),
      uri: Type.String({ description: 'the otpauth://totp/ URI (a QR code of it is what apps scan); shown once' }),
      digits: Type.Integer(),
      period: Type.Integer({ description: 'seconds per code' }),
    }),
  }),
);
const RecoveryCodesSchema = DocumentSchema(
  Type.Object({
    type: Type.Literal('twoFactorRecoveryCodes'),
    id: Type.String({ description: 'the user id' }),
    attributes: Type.Object({
      recoveryCodes: Type.Array(Type.String(), {
        description: `${recoveryCodeCount} single-use codes, shown once: each signs in in place of a code`,
      }),
    }),
  }),
);
const presentRecoveryCodes = (userId: string, recoveryCodes: string[]) => ({
  data: resource('twoFactorRecoveryCodes', userId, { recoveryCodes }),
});

export function twoFactorRoutes({ twoFactor, sessions }: Pick<AccountsServices, 'twoFactor' | 'sessions'>): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: base,
      auth: 'user',
      summary: 'Whether two-factor authentication is on for my account, and my recovery codes left',
      success: { status: 200, schema: StatusSchema },
      handler: async ({ viewer }) => {
        const status = await twoFactor.status(viewer.userId);
        return {
          data: resource('twoFactor', viewer.userId, {
            enabled: status.enabled,
            enabledAt: formatNullableTimestamp(status.enabledAt),
            recoveryCodesLeft: status.recoveryCodesLeft,
          }),
        };
      },
    }),
    route({
      method: 'POST',
      path: base,
      auth: 'user',
      summary: 'Start turning two-factor authentication on: a new TOTP secret and its otpauth:// URI, shown once',
      description:
        'Nothing changes for signing in until POST .../two-factor/confirm gives a first code of this secret. Asking ' +
        'again replaces a secret not confirmed yet. 409 `twoFactorAlreadyEnabled` while it is on.',
      rateLimit: [perIp('two-factor-enrol', 30, 900), perUser('two-factor-enrol', 10, 3600)],
      errors: ['twoFactorAlreadyEnabled', 'notFound'],
      success: { status: 201, schema: EnrolmentSchema },
      handler: async ({ viewer, reply }) => {
        noStore(reply);
        const { secret, uri } = await twoFactor.enrol(viewer.userId);
        return { data: resource('twoFactorEnrolment', viewer.userId, { secret, uri, digits: 6, period: 30 }) };
      },
    }),
    route({
      method: 'POST',
      path: `${base}/confirm`,
      auth: 'user',
      summary: 'Turn two-factor authentication on with a first code; answers 10 recovery codes, shown once',
      description: 'The owner is mailed. Wrong codes count against the account (see Two-factor authentication).',
      rateLimit: [perIp('two-factor-confirm', 30, 900), perUser('two-factor-confirm', 20, 900)],
      body: Type.Object({ code: TotpCode }, { additionalProperties: false }),
      errors: ['twoFactorNotPending', 'twoFactorAlreadyEnabled', 'twoFactorCodeInvalid', 'notFound'],
      success: { status: 200, schema: RecoveryCodesSchema },
      handler: async ({ viewer, body, reply, locale }) => {
        noStore(reply);
        return presentRecoveryCodes(viewer.userId, await twoFactor.confirm(viewer.userId, body.code, locale));
      },
    }),
    route({
      method: 'DELETE',
      path: base,
      auth: 'user',
      summary: 'Turn two-factor authentication off, with a current code or a recovery code',
      description: 'The secret and every recovery code are deleted; the owner is mailed.',
      rateLimit: [perIp('two-factor-disable', 30, 900), perUser('two-factor-disable', 20, 900)],
      body: TwoFactorProofBody,
      errors: ['twoFactorNotEnabled', 'twoFactorCodeInvalid', 'notFound'],
      success: { status: 204 },
      handler: async ({ viewer, body, locale }) => {
        await twoFactor.disable(viewer.userId, twoFactorProofOf(body), locale);
      },
    }),
    route({
      method: 'POST',
      path: `${base}/recovery-codes`,
      auth: 'user',
      summary: 'A new set of 10 recovery codes, with a current code or a recovery code; the old set is void',
      rateLimit: [perIp('two-factor-recovery-codes', 30, 900), perUser('two-factor-recovery-codes', 20, 900)],
      body: TwoFactorProofBody,
      errors: ['twoFactorNotEnabled', 'twoFactorCodeInvalid', 'notFound'],
      success: { status: 200, schema: RecoveryCodesSchema },
      handler: async ({ viewer, body, request, reply }) => {
        noStore(reply);
        const codes = await twoFactor.regenerateRecoveryCodes(
          viewer.userId,
          twoFactorProofOf(body),
          clientInfo(request),
        );
        return presentRecoveryCodes(viewer.userId, codes);
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/two-factor',
      tags: ['auth'],
      auth: 'none',
      summary: 'The second step of a sign-in: the ticket of a 401 twoFactorRequired and a code; answers the session',
      description:
        'Any sign-in of an account with two-factor on (password, identity provider, web form, a passkey that did ' +
        'not verify its user) answers 401 `twoFactorRequired` with `meta.ticket` (valid 5 minutes, single use). ' +
        'Send it with `code` (the authenticator app) or `recoveryCode`. The answer is the one the sign-in would ' +
        'have given. A wrong code is 422 and the ticket stays usable for 5 wrong codes in all.',
      rateLimit: [perIp('two-factor-sign-in', 30, 900)],
      body: TwoFactorCompletionBody,
      errors: ['twoFactorTicketInvalid', 'twoFactorCodeInvalid'],
      success: { status: 200, schema: NewSessionDocumentSchema },
      handler: async ({ body, request, reply }) => {
        noStore(reply);
        const { user, session, accessToken } = await sessions.completeTwoFactor(
          body.ticket,
          twoFactorProofOf(body),
          clientInfo(request),
        );
        return presentNewSession(session, accessToken, user);
      },
    }),
  ];
}
