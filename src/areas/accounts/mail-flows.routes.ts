/** E-mail confirmation and password reset: /api/auth/confirm-email, resend-confirmation, forgot-password, reset-password. */
import { Type } from 'typebox';
import { perBodyField, perIp } from '../../platform/http/rate-limit.ts';
import type { App } from '../../platform/http/types.ts';
import type { AccountsServices } from './accounts.module.ts';

const tags = ['auth'];
const EmailBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 254 }) },
  { additionalProperties: false },
);
const Token = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'the token from the e-mail (also in its link)',
});
/** Mail-sending routes: per IP and per address, so nobody floods an inbox or probes accounts. */
const mailLimits = (name: string) => [perIp(name, 20, 3600), perBodyField(name, 'email', 5, 3600)];

export function mailFlowsRoutes(app: App, { mailFlows }: AccountsServices) {
  app.post(
    '/api/auth/confirm-email',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Confirm an e-mail address with the token sent by mail (single use, 48 hours)',
        body: Type.Object({ token: Token }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      await mailFlows.confirmEmail(request.body.token);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/resend-confirmation',
    {
      config: { auth: 'none', rateLimit: mailLimits('resend-confirmation') },
      schema: {
        tags,
        summary: 'Send a new confirmation link (earlier ones stop working); 202 whatever the account',
        body: EmailBody,
      },
    },
    async (request, reply) => {
      await mailFlows.resendConfirmation(request.body.email, request.locale);
      return reply.status(202).send();
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      config: { auth: 'none', rateLimit: mailLimits('forgot-password') },
      schema: {
        tags,
        summary: 'Send a password reset link (single use, 1 hour); 202 whatever the account',
        body: EmailBody,
      },
    },
    async (request, reply) => {
      await mailFlows.forgotPassword(request.body.email, request.locale);
      return reply.status(202).send();
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: { auth: 'none' },
      schema: {
        tags,
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
      },
    },
    async (request, reply) => {
      await mailFlows.resetPassword(request.body.token, request.body.password);
      return reply.status(204).send();
    },
  );
}
