/** E-mail confirmation and password reset: /api/auth/confirm-email, resend-confirmation, forgot-password, reset-password. */
import { Type } from 'typebox';
import { perBodyField, perIp, type RateLimitRule } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, route } from '../../platform/http/route.ts';
import type { AccountsServices } from './public.ts';

const EmailBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 254 }) },
  { additionalProperties: false },
);
const Token = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'the token from the e-mail (also in its link)',
});
/**
 * Mail-sending routes: per IP; per (address, IP), so one client cannot exhaust an address; and a
 * higher per-address ceiling across IPs. A stranger's requests cannot block the owner's recovery: the
 * mails themselves are capped per account (mailsPerHour in mail-flows.service.ts) and the newest one
 * sent always holds a working link.
 */
const mailLimits = (name: string, addressRule = perBodyField(name, 'email', 30, 3600)): RateLimitRule[] => [
  perIp(name, 20, 3600),
  {
    name: `${name}:address-ip`,
    max: 5,
    windowSeconds: 3600,
    key: (request) => {
      const address = addressRule.key(request);
      return address === null ? null : `${request.ip}|${address}`;
    },
  },
  addressRule,
];
const tokenErrors = ['invalidToken', 'tokenUsed', 'tokenExpired'] as const;

export function mailFlowsRoutes({ mailFlows }: Pick<AccountsServices, 'mailFlows'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/api/auth/confirm-email',
      auth: 'none',
      summary: 'Confirm an e-mail address with the token sent by mail (48 hours); every session of the account ends',
      body: Type.Object({ token: Token }, { additionalProperties: false }),
      errors: [...tokenErrors],
      success: { status: 204 },
      handler: ({ body }) => mailFlows.confirmEmail(body.token),
    }),
    // Mail-sending requests answer 202 whatever the account, before any per-account work shows.
    ...(
      [
        [
          'resend-confirmation',
          'Send a new confirmation link (earlier ones keep working); 202 whatever the account',
          mailFlows.resendConfirmation,
        ],
        [
          'forgot-password',
          'Send a password reset link (single use, 1 hour); 202 whatever the account',
          mailFlows.forgotPassword,
        ],
      ] as const
    ).map(([name, summary, send]) =>
      route({
        method: 'POST',
        path: `/api/auth/${name}`,
        auth: 'none',
        summary,
        rateLimit: mailLimits(name),
        body: EmailBody,
        success: { status: 202 },
        handler: ({ body, locale }) => send.call(mailFlows, body.email, locale),
      }),
    ),
    route({
      method: 'POST',
      path: '/api/auth/reset-password',
      auth: 'none',
      summary: 'Choose a new password with the token sent by mail; ends every session of the account',
      body: Type.Object(
        {
          token: Token,
          password: Type.String({
            minLength: 1,
            maxLength: 128,
            description: '10 to 128 characters, a letter and a digit or symbol',
          }),
        },
        { additionalProperties: false },
      ),
      errors: [...tokenErrors, 'weakPassword'],
      success: { status: 204 },
      handler: ({ body }) => mailFlows.resetPassword(body.token, body.password),
    }),
  ];
}
