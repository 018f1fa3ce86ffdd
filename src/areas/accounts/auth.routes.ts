/** Registration, login and sessions: /api/auth/*. */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { CollectionSchema, DocumentSchema } from '../../platform/http/jsonapi.ts';
import { listDocument } from '../../platform/http/page-document.ts';
import { perBodyField, perIp } from '../../platform/http/rate-limit.ts';
import { type AnyRoute, idParam, route } from '../../platform/http/route.ts';
import { sessionsKeyset } from './accounts.repository.ts';
import {
  NewSessionDocumentSchema,
  OwnUserSchema,
  presentNewSession,
  presentOwnUser,
  presentSession,
  SessionSchema,
} from './presenters.ts';
import type { AccountsServices } from './public.ts';
import { LoginBody, loginNameOf, Password } from './requests.ts';
import { clientInfo } from './sessions.service.ts';
import { NicknameSchema, UsernameSchema } from './usernames.ts';

const Email = Type.String({ format: 'email', maxLength: 254 });
/** An answer that carries an access token must not be kept by any cache. */
const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');

export function authRoutes({ accounts, sessions }: Pick<AccountsServices, 'accounts' | 'sessions'>): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: '/api/auth/register',
      auth: 'none',
      summary: 'Create an account and sign in',
      rateLimit: [perIp('register', 10, 3600), perBodyField('register', 'email', 5, 3600)],
      body: Type.Object(
        {
          email: Email,
          password: Password,
          username: Type.Optional(UsernameSchema),
          nickname: Type.Optional(NicknameSchema),
          sponsorCode: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
          couponCode: Type.Optional(
            Type.String({ pattern: '^[A-Za-z0-9-]{3,32}$', description: 'A coupon to redeem with the account' }),
          ),
        },
        { additionalProperties: false },
      ),
      errors: ['weakPassword', 'emailTaken', 'usernameTaken', 'couponInvalid', 'couponExhausted'],
      success: { status: 201, schema: NewSessionDocumentSchema },
      handler: async ({ body, request, reply, locale }) => {
        noStore(reply);
        const { user, session, accessToken } = await accounts.register(body, clientInfo(request), locale);
        return presentNewSession(session, accessToken, user);
      },
    }),
    route({
      method: 'POST',
      path: '/api/auth/login',
      auth: 'none',
      summary: 'Sign in with an e-mail or a username and a password',
      // All requests per IP here; failed sign-ins per (account, IP) and per account in the service
      // (login-throttle.ts), so a stranger's failures never lock the owner out.
      rateLimit: [perIp('login', 30, 900)],
      body: LoginBody,
      // With two-factor on, the right password answers 401 twoFactorRequired and a ticket (POST /api/auth/two-factor).
      errors: ['invalidCredentials', 'twoFactorRequired'],
      success: { status: 200, schema: NewSessionDocumentSchema },
      handler: async ({ body, request, reply }) => {
        noStore(reply);
        const { user, session, accessToken } = await accounts.login(
          loginNameOf(body),
          body.password,
          clientInfo(request),
        );
        return presentNewSession(session, accessToken, user);
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/me',
      auth: 'user',
      summary: 'The signed-in user',
      errors: ['notFound'],
      success: { status: 200, schema: DocumentSchema(OwnUserSchema) },
      handler: async ({ viewer }) => {
        const { user, birthCity } = await accounts.me(viewer.userId);
        return { data: presentOwnUser(user, birthCity) };
      },
    }),
    route({
      method: 'GET',
      path: '/api/auth/sessions',
      auth: 'user',
      summary: 'My live sessions, newest first; the current one is marked',
      page: { keyset: sessionsKeyset },
      success: { status: 200, schema: CollectionSchema(SessionSchema) },
      handler: async ({ viewer, page, links }) =>
        listDocument(await sessions.list(viewer.userId, page), { page, links }, sessionsKeyset, (row) =>
          presentSession(row, viewer.sessionId),
        ),
    }),
    route({
      method: 'DELETE',
      path: '/api/auth/sessions/{id}',
      auth: 'user',
      summary: 'Revoke one of my sessions (its token dies at once)',
      params: { id: idParam('The session UUID', { hex: false }) },
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer, params }) => sessions.revoke(viewer.userId, params.id),
    }),
    route({
      method: 'POST',
      path: '/api/auth/logout',
      auth: 'user',
      summary: 'End the current session',
      errors: ['notFound'],
      success: { status: 204 },
      handler: ({ viewer }) => sessions.revoke(viewer.userId, viewer.sessionId),
    }),
    route({
      method: 'POST',
      path: '/api/auth/logout-all',
      auth: 'user',
      summary: 'End every session of mine, this one included',
      success: {
        status: 200,
        schema: DocumentSchema(
          Type.Object({
            type: Type.Literal('sessionsEnded'),
            id: Type.String(),
            attributes: Type.Object({ ended: Type.Integer() }),
          }),
        ),
      },
      handler: async ({ viewer }) => ({
        data: {
          type: 'sessionsEnded' as const,
          id: viewer.userId,
          attributes: { ended: await sessions.endAll(viewer.userId) },
        },
      }),
    }),
  ];
}
